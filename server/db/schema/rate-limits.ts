import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window rate-limit counters shared by every server process on one PostgreSQL without
 * Redis (server/lib/rate-limit.ts, DatabaseRateLimiter; migration 0035 makes it UNLOGGED).
 * `key` names the counter (e.g. `guess:enrol:ip:203.0.113.9`), `reset_at` ends its window.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);
