import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { SSH_KEYS_KEY } from './get-ssh-keys';

export async function deleteSshKey(id: string): Promise<void> {
  await apiRequest('DELETE', `${SSH_KEYS_KEY[0]}/${id}`);
}

export function useDeleteSshKey() {
  return useRefreshingMutation(deleteSshKey, [SSH_KEYS_KEY]);
}
