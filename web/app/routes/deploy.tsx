import { Page } from '../../components/ui/page';

export default function DeployPage() {
  return (
    <Page
      title="Instant GPU Deployment"
      description="Deploy a ready-made environment on a GPU in under 60 seconds."
    />
  );
}
