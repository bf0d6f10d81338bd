import type { CreateApiKeyBody, CreatedApiKey } from '../../../../shared/contracts/api-keys';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { API_KEYS_KEY } from './get-api-keys';

export const createApiKey = (body: CreateApiKeyBody) =>
  apiJson<CreatedApiKey>('POST', API_KEYS_KEY[0], body);

export function useCreateApiKey() {
  return useRefreshingMutation(createApiKey, [API_KEYS_KEY]);
}
