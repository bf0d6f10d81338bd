import type { RentalView } from '../../../../shared/contracts/rentals';
import { apiJson } from '../../../lib/api-client';
import { CURRENT_USER_KEY, USER_RENTALS_KEY } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export const stopRental = (id: number) => apiJson<RentalView>('PATCH', `/api/rentals/${id}/stop`);

/** On success the rentals list is refreshed, and the balance that got the refund. */
export function useStopRental() {
  return useRefreshingMutation(stopRental, [USER_RENTALS_KEY, CURRENT_USER_KEY]);
}
