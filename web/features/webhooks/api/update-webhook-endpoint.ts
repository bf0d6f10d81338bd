import type {
  UpdateWebhookEndpointBody,
  WebhookEndpointView,
} from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Changes an endpoint: its URL, types, description, or enabled (true resumes its deliveries). */
export const updateWebhookEndpoint = ({
  id,
  ...body
}: { id: string } & UpdateWebhookEndpointBody) =>
  apiJson<WebhookEndpointView>('PATCH', webhookEndpointUrl(id), body);

export function useUpdateWebhookEndpoint() {
  return useRefreshingMutation(updateWebhookEndpoint, [WEBHOOK_ENDPOINTS_KEY]);
}
