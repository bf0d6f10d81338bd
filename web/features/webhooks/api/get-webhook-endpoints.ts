import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookEndpointView } from '../../../../shared/contracts/webhooks';
import { apiJson } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY } from './keys';

export function getWebhookEndpoints(): Promise<WebhookEndpointView[]> {
  return apiJson<WebhookEndpointView[]>('GET', WEBHOOK_ENDPOINTS_KEY[0]);
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
