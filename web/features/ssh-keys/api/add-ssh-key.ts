import type { AddSshKeyBody, SshKeyView } from '../../../../shared/contracts/ssh-keys';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { SSH_KEYS_KEY } from './get-ssh-keys';

export const addSshKey = (body: AddSshKeyBody) =>
  apiJson<SshKeyView>('POST', SSH_KEYS_KEY[0], body);

export function useAddSshKey() {
  return useRefreshingMutation(addSshKey, [SSH_KEYS_KEY]);
}
