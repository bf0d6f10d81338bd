import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderView } from '../../../../shared/contracts/providers';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** The signed-in user's provider profile; null when they have none (404). */
export async function getMyProvider(userId: string): Promise<ProviderView | null> {
  try {
    const res = await apiRequest('GET', `/api/providers/user/${encodeURIComponent(userId)}`);
    return (await res.json()) as ProviderView;
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('404:')) return null;
    throw error;
  }
}

export const myProviderQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: providerKeys.profile(userId),
    queryFn: () => getMyProvider(userId),
  });

export function useMyProvider(userId: string) {
  return useQuery(myProviderQueryOptions(userId));
}
