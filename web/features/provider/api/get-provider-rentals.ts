import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** Every rental of the provider's listings, running and ended. */
export async function getProviderRentals(providerId: number): Promise<RentalView[]> {
  const res = await apiRequest('GET', `/api/rentals/provider/${providerId}`);
  return (await res.json()) as RentalView[];
}

export const providerRentalsQueryOptions = (providerId: number) =>
  queryOptions({
    queryKey: providerKeys.rentals(providerId),
    queryFn: () => getProviderRentals(providerId),
  });

export function useProviderRentals(providerId: number) {
  return useQuery(providerRentalsQueryOptions(providerId));
}
