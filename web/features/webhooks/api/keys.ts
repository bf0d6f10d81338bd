/**
 * The query keys of Settings → Webhooks, spelled once. The list's key is also its URL; every
 * endpoint's deliveries sit under it, so invalidating the list refreshes them too.
 */
export const WEBHOOK_ENDPOINTS_KEY = ['/api/webhook-endpoints'] as const;

export const webhookEndpointUrl = (id: string) => `${WEBHOOK_ENDPOINTS_KEY[0]}/${id}`;

export const webhookDeliveriesKey = (endpointId: string, status: string) =>
  [...WEBHOOK_ENDPOINTS_KEY, endpointId, 'deliveries', status] as const;
