import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { apiRequest } from '../../../lib/api-client';

export async function getUserRentals(userId: string): Promise<RentalView[]> {
  const res = await apiRequest('GET', `/api/rentals/user/${userId}`);
  return (await res.json()) as RentalView[];
}

export const userRentalsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['/api/rentals/user', userId],
    queryFn: () => getUserRentals(userId),
    staleTime: 0,
  });

export function useUserRentals(userId: string) {
  return useQuery(userRentalsQueryOptions(userId));
}
