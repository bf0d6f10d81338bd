import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { apiRequest } from '../../../lib/api-client';
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

export async function createListing(payload: CreateListingPayload): Promise<GpuListingView> {
  const res = await apiRequest('POST', '/api/gpu-listings', payload);
  return (await res.json()) as GpuListingView;
}

/** On success the provider's listings, the marketplace's listings and its stats refresh. */
export function useCreateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LISTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_STATS_KEY }),
        queryClient.invalidateQueries({ queryKey: providerKeys.hosts }),
      ]);
    },
  });
}
