import type { UpdateProfileBody, UserProfile } from '../../../../shared/contracts/profile';
import { apiJson } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { userProfileKey } from './get-user-profile';

export function updateProfile(userId: string, body: UpdateProfileBody): Promise<UserProfile> {
  return apiJson<UserProfile>('PATCH', `/api/users/${userId}`, body);
}

/** Success refreshes the current user (the shell shows its name) and this profile. */
export function useUpdateProfile(userId: string) {
  return useRefreshingMutation(
    (body: UpdateProfileBody) => updateProfile(userId, body),
    [CURRENT_USER_KEY],
    {
      cacheAs: userProfileKey(userId),
    },
  );
}
