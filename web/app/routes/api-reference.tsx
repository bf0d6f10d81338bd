import { Page } from '../../components/ui/page';

export default function ApiReferencePage() {
  return <Page title="API Reference" description="The RentGPU public REST API." />;
}
