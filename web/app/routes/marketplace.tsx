import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { MarketplaceView } from '../../features/marketplace/components/marketplace-view';

export default function MarketplacePage() {
  const { user } = useCurrentUser();
  return (
    <Page
      title="GPU Marketplace"
      description="Browse GPUs from verified providers and rent them by the hour."
    >
      <div className="mt-6">
        <MarketplaceView currency={user?.currency ?? 'USD'} />
      </div>
    </Page>
  );
}
