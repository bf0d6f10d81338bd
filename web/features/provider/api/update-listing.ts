import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { apiRequest } from '../../../lib/api-client';
import { LISTINGS_KEY, MARKETPLACE_STATS_KEY, providerKeys } from './keys';

/** The fields the Edit dialog may change; only the changed ones are sent. */
export interface UpdateListingChanges {
  hourlyRate?: string;
  location?: string;
  bandwidth?: string;
  totalCount?: number;
  status?: 'available' | 'maintenance';
  /** One of the provider's hosts, or null for none. */
  hostId?: string | null;
}

export async function updateListing({
  id,
  changes,
}: {
  id: number;
  changes: UpdateListingChanges;
}): Promise<GpuListingView> {
  const res = await apiRequest('PATCH', `/api/gpu-listings/${id}`, changes);
  return (await res.json()) as GpuListingView;
}

export function useUpdateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateListing,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LISTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_STATS_KEY }),
        queryClient.invalidateQueries({ queryKey: providerKeys.hosts }),
      ]);
    },
  });
}
