import { and, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { canAct, type InstanceState, LIVE_STATES } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { instances } from '../../db/schema';
import type { Instance } from './repo-rows';
import type { Deadlines } from './types';

/**
 * States a due "stop at" is claimed in: those a stop can be done in (it is carried out), and
 * those already stopping or stopped (it is only cleared). A provisioning instance waits until
 * it runs, so it never fills a batch with rows nothing can be done for.
 */
export const STOP_AT_CLAIMED_STATES = LIVE_STATES.filter(
  (state) => canAct(state, 'stop') || state === 'stopping' || state === 'stopped',
);

/** Live rows in `states` whose deadline `column` has come, oldest first, locked (see below). */
function claimDue(
  conn: Conn,
  column: typeof instances.stopAt | typeof instances.terminateAt,
  states: readonly InstanceState[],
  now: Date,
  limit: number,
): Promise<Instance[]> {
  return conn
    .select()
    .from(instances)
    .where(
      and(
        isNotNull(column),
        isNull(instances.endTime),
        lte(column, now),
        inArray(instances.status, [...states]),
      ),
    )
    .orderBy(column, instances.id)
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * The deadlines' rows (issue 23, part 5). Each claim reads live rows whose deadline has come
 * through its partial index (instances_stop_at_idx, instances_terminate_at_idx), oldest
 * deadline first, and locks them FOR UPDATE SKIP LOCKED: two workers never claim one row.
 */
export const deadlineRepo = {
  claimStopDue: (conn: Conn, now: Date, limit: number) =>
    claimDue(conn, instances.stopAt, STOP_AT_CLAIMED_STATES, now, limit),

  claimTerminateDue: (conn: Conn, now: Date, limit: number) =>
    claimDue(conn, instances.terminateAt, LIVE_STATES, now, limit),

  /** Sets (a date), clears (null) or leaves (absent) each deadline of a locked row. */
  async set(conn: Conn, id: number, deadlines: Deadlines): Promise<void> {
    const changes: Partial<typeof instances.$inferInsert> = {};
    if (deadlines.stopAt !== undefined) changes.stopAt = deadlines.stopAt;
    if (deadlines.terminateAt !== undefined) changes.terminateAt = deadlines.terminateAt;
    if (Object.keys(changes).length === 0) return;
    await conn.update(instances).set(changes).where(eq(instances.id, id));
  },

  /**
   * A "stop at" carried out (or found already stopped): cleared, so a later start runs on;
   * `endReason` records why the worker stopped it.
   */
  async stopDone(conn: Conn, id: number, endReason: 'deadline_stop' | null): Promise<void> {
    await conn
      .update(instances)
      .set(endReason ? { stopAt: null, endReason } : { stopAt: null })
      .where(eq(instances.id, id));
  },
};
