import { Page } from '../../components/ui/page';
import { ProviderApplicationsReview } from '../../features/admin/components/provider-applications-review';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import NotFoundPage from './not-found';

/** Admins only (users.is_admin); everyone else sees the Not Found page, as the API answers 404. */
export default function AdminProviderApplicationsPage() {
  const { user } = useCurrentUser();
  if (!user?.isAdmin) return <NotFoundPage />;
  return (
    <Page
      title="Provider Applications"
      description="Review applications to become a GPU provider. Pending applications come first."
    >
      <ProviderApplicationsReview dates={{ timeZone: user.timezone, language: user.language }} />
    </Page>
  );
}
