import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDeliveryView } from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Sends one delivery again now (the same event and webhook-id, so receivers deduplicate). */
export async function resendWebhookDelivery({
  endpointId,
  deliveryId,
}: {
  endpointId: string;
  deliveryId: string;
}): Promise<WebhookDeliveryView> {
  const res = await apiRequest(
    'POST',
    `${webhookEndpointUrl(endpointId)}/deliveries/${deliveryId}/resend`,
  );
  return (await res.json()) as WebhookDeliveryView;
}

export function useResendWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendWebhookDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
