import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * What a renter was charged per UTC day and calendar month (compute minutes, rentals'
 * escrow), for the whole account (scope 'account') and per API key (scope: the key's id).
 * Moved in the same transaction as the charge, after its wallet row is locked, so spend
 * caps are checked against it without a race (docs/architecture.md, "Spend caps").
 */
export const spendPeriods = pgTable(
  'spend_periods',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    period: text('period').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    spentMicros: bigint('spent_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    /** Set once the 80% warning for this period went out. */
    warnedAt: timestamp('warned_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'spend_periods_pkey', columns: [t.userId, t.scope, t.period, t.startsAt] }),
    check('spend_periods_period_check', sql`${t.period} in ('day', 'month')`),
    check('spend_periods_spent_check', sql`${t.spentMicros} >= 0`),
  ],
);
