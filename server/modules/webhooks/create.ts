import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Mailer } from '../../lib/mailer';
import type { TargetCheck } from '../../lib/outbound-address';
import { type AppendEvent, createWebhookDelivery, type WebhookDelivery } from './delivery';
import { createWebhooksReader, type WebhooksReader } from './reader';
import { createWebhooksService, type WebhooksService } from './service';

/**
 * Signed webhooks (docs/decisions/027): the endpoints' service (routes), the event log's
 * `webhooks` reader (run by the events dispatcher) and the delivery loop (main.ts starts it
 * beside the worker).
 */
export interface Webhooks {
  service: WebhooksService;
  reader: WebhooksReader;
  delivery: WebhookDelivery;
}

export function createWebhooks(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  targets: TargetCheck;
  httpsOnly: boolean;
  appendEvent: AppendEvent;
  /** One attempt's limit; 10 s by default (tests shorten it). */
  timeoutMs?: number;
}): Webhooks {
  const delivery = createWebhookDelivery(deps);
  const reader = createWebhooksReader(deps);
  // Deliveries the reader just wrote are claimed by this process's loop at once.
  reader.committed = () => delivery.kick();
  return { service: createWebhooksService(deps), reader, delivery };
}
