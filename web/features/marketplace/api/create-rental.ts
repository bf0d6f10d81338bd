import type { CreateRentalBody, RentalView } from '../../../../shared/contracts/rentals';
import { idempotentPost } from '../../../lib/api-client';
import {
  CHARGE_LIMITS_KEY,
  CURRENT_USER_KEY,
  LISTINGS_KEY,
  MARKETPLACE_STATS_KEY,
  USER_RENTALS_KEY,
} from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** One rent attempt; retries of it carry the same Idempotency-Key, so it is charged once. */
export const createRental = idempotentPost<CreateRentalBody, RentalView>('/api/rentals');

/**
 * On success the listings and stats are refreshed (a unit fewer is free), and so are the
 * signed-in user, whose balance in the top bar just changed, and their rental list.
 */
export function useCreateRental() {
  return useRefreshingMutation(createRental, [
    LISTINGS_KEY,
    MARKETPLACE_STATS_KEY,
    CURRENT_USER_KEY,
    USER_RENTALS_KEY,
    CHARGE_LIMITS_KEY,
  ]);
}
