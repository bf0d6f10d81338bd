import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { DashboardSkeleton, DashboardView } from '../../features/rentals/components/dashboard-view';

export default function DashboardPage() {
  const { user } = useCurrentUser();
  return (
    <Page
      title="My Dashboard"
      description="Your running GPU instances, what they cost so far, and your rental history."
    >
      <div className="mt-6">
        {user ? <DashboardView userId={user.id} /> : <DashboardSkeleton />}
      </div>
    </Page>
  );
}
