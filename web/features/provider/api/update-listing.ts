import type { GpuListingView } from '../../../../shared/contracts/listings';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
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

export const updateListing = ({ id, changes }: { id: number; changes: UpdateListingChanges }) =>
  apiJson<GpuListingView>('PATCH', `/api/gpu-listings/${id}`, changes);

export function useUpdateListing() {
  return useRefreshingMutation(updateListing, [
    LISTINGS_KEY,
    MARKETPLACE_STATS_KEY,
    providerKeys.hosts,
  ]);
}
