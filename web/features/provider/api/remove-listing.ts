import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { LISTINGS_KEY, MARKETPLACE_STATS_KEY } from './keys';

/** Removes a listing; the server refuses (409) while it has active rentals. */
export async function removeListing(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/gpu-listings/${id}`);
}

export function useRemoveListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeListing,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LISTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_STATS_KEY }),
      ]);
    },
  });
}
