import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyBody, CreatedApiKey } from '../../../../shared/contracts/api-keys';
import { apiRequest } from '../../../lib/api-client';
import { API_KEYS_KEY } from './get-api-keys';

export async function createApiKey(body: CreateApiKeyBody): Promise<CreatedApiKey> {
  const res = await apiRequest('POST', API_KEYS_KEY[0], body);
  return (await res.json()) as CreatedApiKey;
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
