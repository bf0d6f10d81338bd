import { Page } from '../../components/ui/page';
import { DeployView } from '../../features/deploy/components/deploy-view';

export default function DeployPage() {
  return (
    <Page
      title="Instant GPU Deployment"
      description="Pick a template and a GPU, set the storage, and deploy a pay-as-you-go instance."
    >
      <DeployView />
    </Page>
  );
}
