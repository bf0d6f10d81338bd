import { Page } from '../../components/ui/page';
import { ProviderApplicationForm } from '../../features/provider/components/provider-application-form';

export default function ProviderSignupPage() {
  return (
    <Page
      title="Become a GPU Provider"
      description="Apply to list your GPUs on RentGPU. Applications are reviewed within 2-3 business days."
    >
      <ProviderApplicationForm />
    </Page>
  );
}
