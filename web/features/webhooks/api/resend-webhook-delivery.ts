import type { WebhookDeliveryView } from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Sends one delivery again now (the same event and webhook-id, so receivers deduplicate). */
export const resendWebhookDelivery = ({
  endpointId,
  deliveryId,
}: {
  endpointId: string;
  deliveryId: string;
}) =>
  apiJson<WebhookDeliveryView>(
    'POST',
    `${webhookEndpointUrl(endpointId)}/deliveries/${deliveryId}/resend`,
  );

export function useResendWebhookDelivery() {
  return useRefreshingMutation(resendWebhookDelivery, [WEBHOOK_ENDPOINTS_KEY]);
}
