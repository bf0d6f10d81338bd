import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyView } from '../../../../shared/contracts/api-keys';
import { apiJson } from '../../../lib/api-client';

export const API_KEYS_KEY = ['/api/auth/api-keys'] as const;

export const getApiKeys = () => apiJson<ApiKeyView[]>('GET', API_KEYS_KEY[0]);

export function useApiKeys() {
  return useQuery(queryOptions({ queryKey: API_KEYS_KEY, queryFn: getApiKeys, staleTime: 0 }));
}
