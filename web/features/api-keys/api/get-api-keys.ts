import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyView } from '../../../../shared/contracts/api-keys';
import { apiRequest } from '../../../lib/api-client';

export const API_KEYS_KEY = ['/api/auth/api-keys'] as const;

export async function getApiKeys(): Promise<ApiKeyView[]> {
  const res = await apiRequest('GET', API_KEYS_KEY[0]);
  return (await res.json()) as ApiKeyView[];
}

export function useApiKeys() {
  return useQuery(queryOptions({ queryKey: API_KEYS_KEY, queryFn: getApiKeys, staleTime: 0 }));
}
