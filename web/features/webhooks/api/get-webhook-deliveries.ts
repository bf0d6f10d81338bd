import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveryView } from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { webhookDeliveriesKey, webhookEndpointUrl } from './keys';

export type DeliveryFilter = 'all' | WebhookDeliveryView['status'];

/** How many of the newest deliveries the log shows. */
export const DELIVERY_LOG_LIMIT = 50;

export async function getWebhookDeliveries(
  endpointId: string,
  status: DeliveryFilter,
): Promise<WebhookDeliveryView[]> {
  const query = new URLSearchParams({ limit: String(DELIVERY_LOG_LIMIT) });
  if (status !== 'all') query.set('status', status);
  const res = await apiRequest('GET', `${webhookEndpointUrl(endpointId)}/deliveries?${query}`);
  return (await res.json()) as WebhookDeliveryView[];
}

export const webhookDeliveriesQuery = (endpointId: string, status: DeliveryFilter) =>
  queryOptions({
    queryKey: webhookDeliveriesKey(endpointId, status),
    queryFn: () => getWebhookDeliveries(endpointId, status),
    staleTime: 0,
  });

/**
 * An endpoint's delivery log, newest first; polled quickly while a delivery is waiting, and
 * until `watchUntil` (a test event just sent: its delivery row is made a moment later).
 */
export function useWebhookDeliveries(endpointId: string, status: DeliveryFilter, watchUntil = 0) {
  return useQuery({
    ...webhookDeliveriesQuery(endpointId, status),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending') || Date.now() < watchUntil
        ? 1_500
        : 15_000,
  });
}
