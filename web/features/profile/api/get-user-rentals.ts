import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { userRentalsKey } from '../../../lib/query-keys';

/**
 * The user's rentals under the key the dashboard uses, fetched by the default query function
 * (GET /api/rentals/user/{userId}); the profile always reads them fresh.
 */
export const userRentalsQueryOptions = (userId: string) =>
  queryOptions<RentalView[]>({ queryKey: userRentalsKey(userId), staleTime: 0 });

export function useUserRentals(userId: string) {
  return useQuery(userRentalsQueryOptions(userId));
}
