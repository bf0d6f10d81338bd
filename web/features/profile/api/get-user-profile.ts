import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { apiJson } from '../../../lib/api-client';

export const userProfileKey = (userId: string) => ['/api/users', userId] as const;

export function getUserProfile(userId: string): Promise<UserProfile> {
  return apiJson<UserProfile>('GET', `/api/users/${userId}`);
}

export const userProfileQueryOptions = (userId: string) =>
  queryOptions({ queryKey: userProfileKey(userId), queryFn: () => getUserProfile(userId) });

export function useUserProfile(userId: string) {
  return useQuery(userProfileQueryOptions(userId));
}
