import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  UpdateWebhookEndpointBody,
  WebhookEndpointView,
} from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Changes an endpoint: its URL, types, description, or enabled (true resumes its deliveries). */
export async function updateWebhookEndpoint({
  id,
  ...body
}: { id: string } & UpdateWebhookEndpointBody): Promise<WebhookEndpointView> {
  const res = await apiRequest('PATCH', webhookEndpointUrl(id), body);
  return (await res.json()) as WebhookEndpointView;
}

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
