import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { API_KEYS_KEY } from './get-api-keys';

export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest('DELETE', `${API_KEYS_KEY[0]}/${id}`);
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
