import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { DurableEventReader, StoredEvent } from '../events/types';
import { type NewWebhookDelivery, webhooksRepo } from './repo';
import { webhookBody } from './signing';

/** Whether an endpoint listing `types` receives events of `type` (`*` or none: all). */
export function endpointWants(types: readonly string[], type: string): boolean {
  return types.length === 0 || types.includes('*') || types.includes(type);
}

/**
 * The event log's `webhooks` reader (docs/decisions/027): inside the transaction that advances
 * its cursor, one pending delivery per event and enabled endpoint of the event's account that
 * wants its type. A batch read again (a crash before the cursor moved) inserts nothing twice:
 * (endpoint, event) is unique. Two kinds go elsewhere: a `test.ping` (subject
 * `webhook_endpoint:<id>`) only to that endpoint, whatever its types; a
 * `webhook_endpoint.disabled` only to the account's other endpoints. An endpoint receives the
 * events written after it was made (`from_event_id`), not the ones the reader had not read yet.
 */
/** The reader as the dispatcher runs it (DurableEventReader), its `handle` always there. */
export type WebhooksReader = DurableEventReader & {
  handle(tx: Tx, events: StoredEvent[]): Promise<void>;
};

export function createWebhooksReader(deps: { clock: Clock }): WebhooksReader {
  return {
    name: 'webhooks',
    // The events of accounts with an endpoint, enabled or not: `handle` picks the enabled ones
    // when it runs. An endpoint made after this read starts after these events anyway
    // (`fromEventId` is the log's bound when it was made, at or past this read's).
    wants: { accountsIn: sql`select ${webhookEndpoints.userId} from ${webhookEndpoints}` },
    async handle(tx: Tx, events: StoredEvent[]): Promise<void> {
      if (events.length === 0) return;
      const accounts = [...new Set(events.map((e) => e.accountUserId))];
      const endpoints = await webhooksRepo.enabledOf(tx, accounts);
      if (endpoints.length === 0) return;
      const byAccount = new Map<string, typeof endpoints>();
      for (const endpoint of endpoints) {
        const list = byAccount.get(endpoint.userId) ?? [];
        list.push(endpoint);
        byAccount.set(endpoint.userId, list);
      }
      const now = deps.clock.now();
      const rows: NewWebhookDelivery[] = [];
      for (const event of events) {
        const mine = byAccount.get(event.accountUserId);
        if (!mine) continue;
        const targets = (
          event.type === 'test.ping'
            ? mine.filter(
                (e) => event.subjectKind === 'webhook_endpoint' && e.id === event.subjectId,
              )
            : mine.filter(
                (e) =>
                  endpointWants(e.types, event.type) &&
                  !(event.type === 'webhook_endpoint.disabled' && e.id === event.subjectId),
              )
        ).filter((e) => event.id > e.fromEventId);
        if (targets.length === 0) continue;
        const body = webhookBody(event);
        for (const endpoint of targets) {
          rows.push({
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: event.type,
            subject: `${event.subjectKind}:${event.subjectId}`,
            body,
            nextAttemptAt: now,
          });
        }
      }
      await webhooksRepo.insertDeliveries(tx, rows);
    },
  };
}
