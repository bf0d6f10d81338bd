import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderView } from '../../../../shared/contracts/providers';
import { apiRequest } from '../../../lib/api-client';

export async function getProviderProfile(userId: string): Promise<ProviderView> {
  const res = await apiRequest('GET', `/api/providers/user/${userId}`);
  return (await res.json()) as ProviderView;
}

/** Only asked for users with a provider profile (404 otherwise). */
export function useProviderProfile(userId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['/api/providers/user', userId],
      queryFn: () => getProviderProfile(userId),
      enabled,
    }),
  );
}
