import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SshKeyView } from '../../../../shared/contracts/ssh-keys';
import { apiRequest } from '../../../lib/api-client';

export const SSH_KEYS_KEY = ['/api/ssh-keys'] as const;

export async function getSshKeys(): Promise<SshKeyView[]> {
  const res = await apiRequest('GET', SSH_KEYS_KEY[0]);
  return (await res.json()) as SshKeyView[];
}

export function useSshKeys() {
  return useQuery(queryOptions({ queryKey: SSH_KEYS_KEY, queryFn: getSshKeys, staleTime: 0 }));
}
