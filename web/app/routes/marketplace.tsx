import { Page } from '../../components/ui/page';

export default function MarketplacePage() {
  return (
    <Page
      title="GPU Marketplace"
      description="Browse GPUs from verified providers and rent them by the hour."
    />
  );
}
