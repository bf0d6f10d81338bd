import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { instances } from './instances';
import { hosts } from './marketplace';

/**
 * One instance's time with its host unreachable (docs/decisions/022): opened with the host's
 * outage (from its last heartbeat), closed when the host is back. `minutesNotCharged` counts
 * the metered minutes the minute job let pass unbilled meanwhile (never a charge, never a
 * ledger posting); a booked rental's unreachable time is its seconds, refunded at settlement.
 */
export const instanceOutages = pgTable(
  'instance_outages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    instanceId: integer('instance_id')
      .notNull()
      .references(() => instances.id),
    hostId: text('host_id')
      .notNull()
      .references(() => hosts.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    minutesNotCharged: integer('minutes_not_charged').notNull().default(0),
  },
  (t) => [
    index('instance_outages_instance_idx').on(t.instanceId, t.startedAt),
    index('instance_outages_host_idx').on(t.hostId, t.startedAt),
    uniqueIndex('instance_outages_open_key').on(t.instanceId).where(sql`${t.endedAt} is null`),
    check('instance_outages_minutes_check', sql`${t.minutesNotCharged} >= 0`),
    check(
      'instance_outages_period_check',
      sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`,
    ),
  ],
);

export type InstanceOutage = typeof instanceOutages.$inferSelect;

/**
 * The server's own heartbeat (issue 39, part 2): one row, beaten by every pass of the
 * silent-hosts job. `resumed_at` is the first beat after a gap (a stop, a restart, a worker
 * that could not run): no host is marked offline, and no outage starts, for time before
 * `resumed_at` plus the grace period (hostsRepo.beatServer).
 */
export const serverLiveness = pgTable(
  'server_liveness',
  {
    id: boolean('id').primaryKey().default(true),
    lastBeatAt: timestamp('last_beat_at', { withTimezone: true }).notNull(),
    resumedAt: timestamp('resumed_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('server_liveness_one_row_check', sql`${t.id}`)],
);
