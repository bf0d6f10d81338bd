import type { GpuListingView } from '../../../../shared/contracts/listings';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { LISTINGS_KEY, MARKETPLACE_STATS_KEY, providerKeys } from './keys';

/** The body the Add New GPU Listing dialog sends (POST /api/gpu-listings). */
export interface CreateListingPayload {
  providerId: number;
  model: string;
  memory: string;
  cudaCores: number | null;
  location: string;
  bandwidth: string;
  hourlyRate: string;
  dailyRate: string;
  status: 'available';
  availableCount: number;
  totalCount: number;
  /** JSON text of bandwidth, pcieLanes, powerConsumption, cooling, additionalSpecs. */
  specifications: string;
  /** One of the provider's hosts; absent for none. */
  hostId?: string;
}

export const createListing = (payload: CreateListingPayload) =>
  apiJson<GpuListingView>('POST', '/api/gpu-listings', payload);

/** On success the provider's listings, the marketplace's listings and its stats refresh. */
export function useCreateListing() {
  return useRefreshingMutation(createListing, [
    LISTINGS_KEY,
    MARKETPLACE_STATS_KEY,
    providerKeys.hosts,
  ]);
}
