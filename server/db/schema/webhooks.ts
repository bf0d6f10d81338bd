import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';

/**
 * An account's webhook endpoints (docs/decisions/027, "Webhooks"): where the `webhooks`
 * reader of the event log sends the events of the types it lists (`*`: all), signed with
 * `secret` (Standard Webhooks, `whsec_…`) and, until `previous_until` after a rotation, with
 * `previous_secret` too.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    types: text('types').array().notNull().default(sql`'{*}'::text[]`),
    secret: text('secret').notNull(),
    /** The log's newest event when it was made: it receives the events after it, not before. */
    fromEventId: bigint('from_event_id', { mode: 'bigint' }).notNull().default(sql`0`),
    previousSecret: text('previous_secret'),
    previousUntil: timestamp('previous_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** 'owner' (switched off) or 'failing' (three days of failed attempts). */
    disabledReason: text('disabled_reason'),
    /** The first failed attempt of the current run of failures; null after a success. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId),
    check(
      'webhook_endpoints_disabled_reason_check',
      sql`${t.disabledReason} is null or ${t.disabledReason} in ('owner', 'failing')`,
    ),
  ],
);

/**
 * One event to one endpoint: made by the `webhooks` reader in the transaction that advances
 * its cursor (one row per event and matching endpoint, never twice: the unique pair), sent by
 * the delivery loop (server/modules/webhooks/delivery.ts), which claims a due row with a lease
 * (`claimed_until`) so one attempt at a time runs per delivery across processes. `body` is the
 * signed JSON as sent, kept with the row, so a retry or a "send again" after the event left
 * the log (30 days) sends the same bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'bigint' }).notNull(),
    eventType: text('event_type').notNull(),
    /** `kind:id` of the event's subject: deliveries of one subject to one endpoint go in order. */
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    /** Attempts made (an attempt counts when it is claimed). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** While an attempt runs: until when its sender holds it (a lease; a crash lets it lapse). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    /** The first 1 KiB of the last answer's body. */
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_idx').on(t.endpointId, t.eventId),
    // The claim: due pending rows, an index range however many wait.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // The claim per endpoint: has it a due delivery (its oldest), how many are in flight —
    // probes of that endpoint's rows, whatever another endpoint's backlog.
    index('webhook_deliveries_endpoint_due_idx')
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_claimed_idx')
      .on(t.endpointId, t.claimedUntil)
      .where(sql`${t.status} = 'pending' and ${t.claimedUntil} is not null`),
    // "Is an earlier delivery of this subject to this endpoint still pending?"
    index('webhook_deliveries_pending_subject_idx')
      .on(t.endpointId, t.subject, t.eventId)
      .where(sql`${t.status} = 'pending'`),
    check(
      'webhook_deliveries_status_check',
      sql`${t.status} in ('pending', 'delivered', 'failed')`,
    ),
  ],
);
