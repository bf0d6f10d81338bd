import type {
  CreateWebhookEndpointBody,
  WebhookEndpointWithSecret,
} from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY } from './keys';

/** Creates an endpoint; the answer carries its signing secret, the only time it is shown. */
export const createWebhookEndpoint = (body: CreateWebhookEndpointBody) =>
  apiJson<WebhookEndpointWithSecret>('POST', WEBHOOK_ENDPOINTS_KEY[0], body);

export function useCreateWebhookEndpoint() {
  return useRefreshingMutation(createWebhookEndpoint, [WEBHOOK_ENDPOINTS_KEY]);
}
