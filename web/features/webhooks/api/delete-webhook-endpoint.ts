import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Deletes an endpoint: nothing more is sent to it, pending deliveries included. */
export async function deleteWebhookEndpoint(id: string): Promise<void> {
  await apiRequest('DELETE', webhookEndpointUrl(id));
}

export function useDeleteWebhookEndpoint() {
  return useRefreshingMutation(deleteWebhookEndpoint, [WEBHOOK_ENDPOINTS_KEY]);
}
