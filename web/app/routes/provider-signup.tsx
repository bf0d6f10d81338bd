import { Page } from '../../components/ui/page';

export default function ProviderSignupPage() {
  return <Page title="Become a GPU Provider" description="Apply to list your GPUs on RentGPU." />;
}
