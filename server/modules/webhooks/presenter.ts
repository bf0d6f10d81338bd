import { eventIdOf } from '../../../shared/contracts/events';
import type { WebhookDeliveryView, WebhookEndpointView } from '../../../shared/contracts/webhooks';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './repo';

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export function presentWebhookEndpoint(
  row: WebhookEndpointRow,
  pending: number,
  now: Date,
): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    types: row.types,
    enabled: row.disabledAt === null,
    disabledAt: isoOrNull(row.disabledAt),
    disabledReason:
      row.disabledReason === 'owner' || row.disabledReason === 'failing'
        ? row.disabledReason
        : null,
    failingSince: isoOrNull(row.failingSince),
    previousSecretUntil:
      row.previousSecret && row.previousUntil && row.previousUntil > now
        ? row.previousUntil.toISOString()
        : null,
    createdAt: row.createdAt.toISOString(),
    pending,
  };
}

export function presentWebhookDelivery(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: eventIdOf(row.eventId),
    eventType: row.eventType,
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    lastStatus: row.lastStatus,
    lastLatencyMs: row.lastLatencyMs,
    lastError: row.lastError,
    responseExcerpt: row.responseExcerpt,
    createdAt: row.createdAt.toISOString(),
  };
}
