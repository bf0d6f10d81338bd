import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserSettings } from '../../../../shared/contracts/settings';
import { apiRequest } from '../../../lib/api-client';

export const settingsKey = (userId: string) => ['/api/users', userId, 'settings'] as const;

export async function getSettings(userId: string): Promise<UserSettings> {
  const res = await apiRequest('GET', `/api/users/${userId}/settings`);
  return (await res.json()) as UserSettings;
}

/** Read from the server each time the page opens. */
export function useSettings(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: settingsKey(userId),
      queryFn: () => getSettings(userId),
      staleTime: 0,
    }),
  );
}
