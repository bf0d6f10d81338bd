import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookTestAnswer } from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Writes a `test.ping` event for one endpoint (a delivery like any other, in its log). */
export async function sendTestEvent(id: string): Promise<WebhookTestAnswer> {
  const res = await apiRequest('POST', `${webhookEndpointUrl(id)}/test`);
  return (await res.json()) as WebhookTestAnswer;
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    // The endpoint's pending count and its log.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
