import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserSettings } from '../../../../shared/contracts/settings';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { settingsKey } from './get-settings';

export async function updateSettings(
  userId: string,
  settings: UserSettings,
): Promise<UserSettings> {
  const res = await apiRequest('PATCH', `/api/users/${userId}/settings`, settings);
  return (await res.json()) as UserSettings;
}

/**
 * Saves the whole settings object. The current user carries the display currency, time zone,
 * language and theme, so it is refreshed too: marketplace prices follow at once.
 */
export function useUpdateSettings(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UserSettings) => updateSettings(userId, settings),
    onSuccess: async (saved) => {
      queryClient.setQueryData(settingsKey(userId), saved);
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
