import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ConfirmEmailBody,
  UpdateProfileBody,
  UserProfile,
} from '../../../../shared/contracts/profile';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { userProfileKey } from './get-user-profile';

type Step = 'confirm' | 'cancel' | 'resend';

async function send(userId: string, step: Step, value: string): Promise<UserProfile> {
  const confirm: ConfirmEmailBody = { otp: value };
  const resend: UpdateProfileBody = { email: value };
  const res =
    step === 'confirm'
      ? await apiRequest('POST', `/api/users/${userId}/email/confirm`, confirm)
      : step === 'cancel'
        ? await apiRequest('DELETE', `/api/users/${userId}/email/pending`)
        : await apiRequest('PATCH', `/api/users/${userId}`, resend);
  return (await res.json()) as UserProfile;
}

/**
 * The pending e-mail change: confirm with the code, cancel, or ask for a new code (PATCH
 * with the pending address again). Each answer is the fresh profile.
 */
export function useEmailChange(userId: string, step: Step) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: string) => send(userId, step, value),
    onSuccess: async (profile) => {
      queryClient.setQueryData(userProfileKey(userId), profile);
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
    onError: async () => {
      // A refused confirm may have ended the request (address taken): show what is true now.
      await queryClient.invalidateQueries({ queryKey: userProfileKey(userId) });
    },
  });
}
