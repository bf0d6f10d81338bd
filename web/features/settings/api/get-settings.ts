import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserSettings } from '../../../../shared/contracts/settings';
import { apiJson } from '../../../lib/api-client';

export const settingsKey = (userId: string) => ['/api/users', userId, 'settings'] as const;

export function getSettings(userId: string): Promise<UserSettings> {
  return apiJson<UserSettings>('GET', `/api/users/${userId}/settings`);
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
