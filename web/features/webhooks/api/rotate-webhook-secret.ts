import type { WebhookEndpointWithSecret } from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** A new signing secret, shown once; the previous one keeps signing for WEBHOOK_ROTATION_HOURS. */
export const rotateWebhookSecret = (id: string) =>
  apiJson<WebhookEndpointWithSecret>('POST', `${webhookEndpointUrl(id)}/rotate-secret`);

export function useRotateWebhookSecret() {
  return useRefreshingMutation(rotateWebhookSecret, [WEBHOOK_ENDPOINTS_KEY]);
}
