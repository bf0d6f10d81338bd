import type { WebhookTestAnswer } from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Writes a `test.ping` event for one endpoint (a delivery like any other, in its log). */
export const sendTestEvent = (id: string) =>
  apiJson<WebhookTestAnswer>('POST', `${webhookEndpointUrl(id)}/test`);

export function useSendTestEvent() {
  // The endpoint's pending count and its log.
  return useRefreshingMutation(sendTestEvent, [WEBHOOK_ENDPOINTS_KEY]);
}
