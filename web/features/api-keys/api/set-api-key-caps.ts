import type { ApiKeyCapsBody, ApiKeyView } from '../../../../shared/contracts/api-keys';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { API_KEYS_KEY } from './get-api-keys';

export const setApiKeyCaps = ({ id, ...caps }: { id: string } & ApiKeyCapsBody) =>
  apiJson<ApiKeyView>('PUT', `${API_KEYS_KEY[0]}/${id}/caps`, caps);

export function useSetApiKeyCaps() {
  return useRefreshingMutation(setApiKeyCaps, [API_KEYS_KEY]);
}
