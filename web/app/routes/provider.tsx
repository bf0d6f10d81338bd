import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import {
  ProviderDashboard,
  ProviderDashboardSkeleton,
} from '../../features/provider/components/provider-dashboard';

export default function ProviderPage() {
  const { user } = useCurrentUser();
  return (
    <Page title="Provider Dashboard" description="Your GPU listings, rentals and revenue.">
      {user ? (
        <ProviderDashboard
          userId={user.id}
          dates={{ timeZone: user.timezone, language: user.language }}
        />
      ) : (
        <ProviderDashboardSkeleton />
      )}
    </Page>
  );
}
