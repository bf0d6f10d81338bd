import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileBody, UserProfile } from '../../../../shared/contracts/profile';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { userProfileKey } from './get-user-profile';

export async function updateProfile(userId: string, body: UpdateProfileBody): Promise<UserProfile> {
  const res = await apiRequest('PATCH', `/api/users/${userId}`, body);
  return (await res.json()) as UserProfile;
}

/** Success refreshes the current user (the shell shows its name) and this profile. */
export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => updateProfile(userId, body),
    onSuccess: async (profile) => {
      queryClient.setQueryData(userProfileKey(userId), profile);
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
