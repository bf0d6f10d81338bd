import { Page } from '../../components/ui/page';

export default function DocumentationPage() {
  return (
    <Page
      title="Documentation"
      description="How to rent GPUs, use the API and CLI, and become a provider."
    />
  );
}
