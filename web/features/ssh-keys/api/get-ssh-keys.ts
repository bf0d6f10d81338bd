import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SshKeyView } from '../../../../shared/contracts/ssh-keys';
import { apiJson } from '../../../lib/api-client';

export const SSH_KEYS_KEY = ['/api/ssh-keys'] as const;

export const getSshKeys = () => apiJson<SshKeyView[]>('GET', SSH_KEYS_KEY[0]);

export function useSshKeys() {
  return useQuery(queryOptions({ queryKey: SSH_KEYS_KEY, queryFn: getSshKeys, staleTime: 0 }));
}
