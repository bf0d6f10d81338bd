import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { LISTINGS_KEY, MARKETPLACE_STATS_KEY } from './keys';

/** Removes a listing; the server refuses (409) while it has active rentals. */
export async function removeListing(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/gpu-listings/${id}`);
}

export function useRemoveListing() {
  return useRefreshingMutation(removeListing, [LISTINGS_KEY, MARKETPLACE_STATS_KEY]);
}
