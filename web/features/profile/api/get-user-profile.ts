import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { apiRequest } from '../../../lib/api-client';

export const userProfileKey = (userId: string) => ['/api/users', userId] as const;

export async function getUserProfile(userId: string): Promise<UserProfile> {
  const res = await apiRequest('GET', `/api/users/${userId}`);
  return (await res.json()) as UserProfile;
}

export const userProfileQueryOptions = (userId: string) =>
  queryOptions({ queryKey: userProfileKey(userId), queryFn: () => getUserProfile(userId) });

export function useUserProfile(userId: string) {
  return useQuery(userProfileQueryOptions(userId));
}
