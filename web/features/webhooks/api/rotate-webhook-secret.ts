import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointWithSecret } from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** A new signing secret, shown once; the previous one keeps signing for WEBHOOK_ROTATION_HOURS. */
export async function rotateWebhookSecret(id: string): Promise<WebhookEndpointWithSecret> {
  const res = await apiRequest('POST', `${webhookEndpointUrl(id)}/rotate-secret`);
  return (await res.json()) as WebhookEndpointWithSecret;
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
