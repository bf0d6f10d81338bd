import { Page } from '../../components/ui/page';
import { ApiReference } from '../../features/api-reference/components/api-reference';

export default function ApiReferencePage() {
  return (
    <Page
      title="API Reference"
      description="The RentGPU public API: list GPUs, rent and stop instances and read your account from your own code, with bearer API keys."
    >
      <div className="mt-8">
        <ApiReference />
      </div>
    </Page>
  );
}
