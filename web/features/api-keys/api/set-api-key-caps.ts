import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCapsBody, ApiKeyView } from '../../../../shared/contracts/api-keys';
import { apiRequest } from '../../../lib/api-client';
import { API_KEYS_KEY } from './get-api-keys';

export async function setApiKeyCaps(input: { id: string } & ApiKeyCapsBody): Promise<ApiKeyView> {
  const { id, ...caps } = input;
  const res = await apiRequest('PUT', `${API_KEYS_KEY[0]}/${id}/caps`, caps);
  return (await res.json()) as ApiKeyView;
}

export function useSetApiKeyCaps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApiKeyCaps,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
