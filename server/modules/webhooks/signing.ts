import { createHmac, randomBytes } from 'node:crypto';
import { eventIdOf } from '../../../shared/contracts/events';
import { WEBHOOK_SECRET_PREFIX } from '../../../shared/contracts/webhooks';
import type { StoredEvent } from '../events/types';

/**
 * Standard Webhooks (https://www.standardwebhooks.com, docs/decisions/027): the secret, the
 * body and the three headers, exactly as the specification says, so its libraries verify them.
 */

/** `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The key a secret stands for: the base64-decoded part after `whsec_`. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest();
  return `v1,${mac.toString('base64')}`;
}

/**
 * The headers of one attempt: `webhook-id` (the event's id, the same on every retry, so
 * receivers deduplicate), `webhook-timestamp` (this attempt's Unix seconds) and
 * `webhook-signature` (one `v1,…` per secret, space-separated: during a rotation both sign).
 */
export function webhookHeaders(input: {
  eventId: bigint | string;
  at: Date;
  body: string;
  secrets: string[];
}): Record<string, string> {
  const id = eventIdOf(input.eventId);
  const timestamp = Math.floor(input.at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': input.secrets
      .map((secret) => signatureOf(secret, id, timestamp, input.body))
      .join(' '),
  };
}

/**
 * The body of an event's deliveries: `{"type", "timestamp", "data"}` (Standard Webhooks'
 * envelope). `timestamp` is when the change happened (not the attempt's time); `data` is the
 * event's own data with its `id` (`evt_…`, as on GET /api/v1/events) and `subject`
 * (`{kind, id, seq}`) added — the event log's data never uses those two keys.
 */
export function webhookBody(event: StoredEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.at.toISOString(),
    data: {
      ...event.data,
      id: eventIdOf(event.id),
      subject: { kind: event.subjectKind, id: event.subjectId, seq: event.subjectSeq },
    },
  });
}
