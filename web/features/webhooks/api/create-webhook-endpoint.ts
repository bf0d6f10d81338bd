import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateWebhookEndpointBody,
  WebhookEndpointWithSecret,
} from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY } from './keys';

/** Creates an endpoint; the answer carries its signing secret, the only time it is shown. */
export async function createWebhookEndpoint(
  body: CreateWebhookEndpointBody,
): Promise<WebhookEndpointWithSecret> {
  const res = await apiRequest('POST', WEBHOOK_ENDPOINTS_KEY[0], body);
  return (await res.json()) as WebhookEndpointWithSecret;
}

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
