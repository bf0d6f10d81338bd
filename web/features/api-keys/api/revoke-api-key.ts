import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { API_KEYS_KEY } from './get-api-keys';

export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest('DELETE', `${API_KEYS_KEY[0]}/${id}`);
}

export function useRevokeApiKey() {
  return useRefreshingMutation(revokeApiKey, [API_KEYS_KEY]);
}
