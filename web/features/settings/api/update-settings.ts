import type { UserSettings } from '../../../../shared/contracts/settings';
import { apiJson } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { settingsKey } from './get-settings';

export function updateSettings(userId: string, settings: UserSettings): Promise<UserSettings> {
  return apiJson<UserSettings>('PATCH', `/api/users/${userId}/settings`, settings);
}

/**
 * Saves the whole settings object. The current user carries the display currency, time zone,
 * language and theme, so it is refreshed too: marketplace prices follow at once.
 */
export function useUpdateSettings(userId: string) {
  return useRefreshingMutation(
    (settings: UserSettings) => updateSettings(userId, settings),
    [CURRENT_USER_KEY],
    { cacheAs: settingsKey(userId) },
  );
}
