import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookEndpointView } from '../../../../shared/contracts/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY } from './keys';

export async function getWebhookEndpoints(): Promise<WebhookEndpointView[]> {
  const res = await apiRequest('GET', WEBHOOK_ENDPOINTS_KEY[0]);
  return (await res.json()) as WebhookEndpointView[];
}

export const webhookEndpointsQuery = () =>
  queryOptions({ queryKey: WEBHOOK_ENDPOINTS_KEY, queryFn: getWebhookEndpoints, staleTime: 0 });

/** The account's endpoints; polled while any has deliveries waiting, so the counts move. */
export function useWebhookEndpoints() {
  return useQuery({
    ...webhookEndpointsQuery(),
    refetchInterval: (query) =>
      query.state.data?.some((endpoint) => endpoint.pending > 0) ? 5_000 : false,
  });
}
