import type { ProviderView } from '../../../shared/contracts/providers';
import type { Provider } from '../../db/schema';

export function presentProvider(provider: Provider): ProviderView {
  return {
    id: provider.id,
    userId: provider.userId,
    companyName: provider.companyName,
    location: provider.location,
    isVerified: provider.isVerified,
    reputation: provider.reputation,
    createdAt: provider.createdAt.toISOString(),
  };
}
