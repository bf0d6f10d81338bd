import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { apiJson } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** Every rental of the provider's listings, running and ended. */
export function getProviderRentals(providerId: number): Promise<RentalView[]> {
  return apiJson<RentalView[]>('GET', `/api/rentals/provider/${providerId}`);
}

export const providerRentalsQueryOptions = (providerId: number) =>
  queryOptions({
    queryKey: providerKeys.rentals(providerId),
    queryFn: () => getProviderRentals(providerId),
  });

export function useProviderRentals(providerId: number) {
  return useQuery(providerRentalsQueryOptions(providerId));
}
