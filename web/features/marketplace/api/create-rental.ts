import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateRentalBody, RentalView } from '../../../../shared/contracts/rentals';
import { apiRequest } from '../../../lib/api-client';
import {
  CURRENT_USER_KEY,
  LISTINGS_KEY,
  MARKETPLACE_STATS_KEY,
  USER_RENTALS_KEY,
} from '../../../lib/query-keys';

/** One rent attempt; retries of it carry the same Idempotency-Key, so it is charged once. */
export async function createRental({
  body,
  idempotencyKey,
}: {
  body: CreateRentalBody;
  idempotencyKey: string;
}): Promise<RentalView> {
  const res = await apiRequest('POST', '/api/rentals', body, { idempotencyKey });
  return (await res.json()) as RentalView;
}

/**
 * On success the listings and stats are refreshed (a unit fewer is free), and so are the
 * signed-in user, whose balance in the top bar just changed, and their rental list.
 */
export function useCreateRental() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRental,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: LISTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_STATS_KEY }),
        queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_RENTALS_KEY }),
      ]);
    },
  });
}
