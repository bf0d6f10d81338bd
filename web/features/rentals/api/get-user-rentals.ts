import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { userRentalsKey } from '../../../lib/query-keys';

const PROVISIONING_POLL_MS = 5_000;

/**
 * The signed-in user's rentals. While an instance is provisioning the list is polled, so
 * its SSH details appear as soon as it is ready; otherwise it is refreshed only on actions.
 */
export const userRentalsQueryOptions = (userId: string) =>
  queryOptions<RentalView[]>({
    queryKey: userRentalsKey(userId),
    refetchInterval: (query) =>
      query.state.data?.some((r) => r.phase === 'provisioning') ? PROVISIONING_POLL_MS : false,
  });

export function useUserRentals(userId: string) {
  return useQuery(userRentalsQueryOptions(userId));
}
