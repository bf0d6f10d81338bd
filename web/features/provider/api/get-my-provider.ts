import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** The provider profile as GET /api/providers/user/{userId} answers it. */
export interface ProviderProfile {
  id: number;
  userId: string | null;
  companyName: string;
  location: string;
  isVerified: boolean;
  reputation: string;
  createdAt: string;
}

/** The signed-in user's provider profile; null when they have none (404). */
export async function getMyProvider(userId: string): Promise<ProviderProfile | null> {
  try {
    const res = await apiRequest('GET', `/api/providers/user/${encodeURIComponent(userId)}`);
    return (await res.json()) as ProviderProfile;
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
