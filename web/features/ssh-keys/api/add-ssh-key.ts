import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddSshKeyBody, SshKeyView } from '../../../../shared/contracts/ssh-keys';
import { apiRequest } from '../../../lib/api-client';
import { SSH_KEYS_KEY } from './get-ssh-keys';

export async function addSshKey(body: AddSshKeyBody): Promise<SshKeyView> {
  const res = await apiRequest('POST', SSH_KEYS_KEY[0], body);
  return (await res.json()) as SshKeyView;
}

export function useAddSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSshKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SSH_KEYS_KEY }),
  });
}
