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

/**
 * One Idempotency-Key per owner, method and route (docs/decisions/009-idempotency-keys.md).
 * A request claims its key (`in_progress`, with a fresh claim token) before it runs; its
 * answer is stored (`completed`) in the same transaction as the work it did, when the route
 * is a money route. Rows past `expires_at` are ignored and swept by the worker.
 * An `in_progress` row past `lease_expires_at` was left by a request that is no longer
 * running (its process died); a retry of the same request takes it over.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Who the key belongs to: the signed-in user (or, later, an API key's owner). */
    owner: text('owner').notNull(),
    method: text('method').notNull(),
    /** The route's pattern, e.g. /api/rentals (not the concrete URL). */
    route: text('route').notNull(),
    key: text('key').notNull(),
    /** sha256 of the canonical JSON of the request (path parameters, query, body). */
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull().default('in_progress'),
    /** Changes with every claim: only the request holding it may complete or release it. */
    claimToken: uuid('claim_token').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    /**
     * Until when the claim's holder is taken to be alive (the database's clock): set at claim
     * and renewed while the request runs; an `in_progress` claim past it was abandoned and a
     * retry of the same request may take it over. Default: the pre-lease 5 minutes.
     */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true })
      .notNull()
      .default(sql`(now() + interval '5 minutes')`),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_scope_key').on(t.owner, t.method, t.route, t.key),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    check('idempotency_keys_state_check', sql`${t.state} in ('in_progress', 'completed')`),
    check(
      'idempotency_keys_completed_check',
      sql`${t.state} <> 'completed' or (${t.responseStatus} is not null and ${t.responseBody} is not null and ${t.completedAt} is not null)`,
    ),
  ],
);

export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
