import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SSH_KEYS_KEY } from './get-ssh-keys';

export async function deleteSshKey(id: string): Promise<void> {
  await apiRequest('DELETE', `${SSH_KEYS_KEY[0]}/${id}`);
}

export function useDeleteSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSshKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SSH_KEYS_KEY }),
  });
}
