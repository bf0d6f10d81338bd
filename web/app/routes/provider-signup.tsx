import { Page } from '../../components/ui/page';
import { Skeleton } from '../../components/ui/skeleton';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { ProviderSignup } from '../../features/provider/components/provider-signup';

export default function ProviderSignupPage() {
  const { user } = useCurrentUser();
  return (
    <Page
      title="Become a GPU Provider"
      description="Apply to list your GPUs on RentGPU. Applications are reviewed within 2-3 business days."
    >
      {user ? <ProviderSignup userId={user.id} /> : <Skeleton className="mt-6 h-96 w-full" />}
    </Page>
  );
}
