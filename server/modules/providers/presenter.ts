import type { Provider } from '../../db/schema';

export interface ProviderView {
  id: number;
  userId: string | null;
  companyName: string;
  location: string;
  isVerified: boolean;
  reputation: string;
  createdAt: string;
}

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
