import { and, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { canAct, LIVE_STATES } from '../../../shared/rules/instance-lifecycle';
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

/**
 * The deadlines' rows (issue 23, part 5). Each claim reads live rows whose deadline has come
 * through its partial index (instances_stop_at_idx, instances_terminate_at_idx), oldest
 * deadline first, and locks them FOR UPDATE SKIP LOCKED: two workers never claim one row.
 */
export const deadlineRepo = {
  claimStopDue(conn: Conn, now: Date, limit: number): Promise<Instance[]> {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          isNotNull(instances.stopAt),
          isNull(instances.endTime),
          lte(instances.stopAt, now),
          inArray(instances.status, STOP_AT_CLAIMED_STATES),
        ),
      )
      .orderBy(instances.stopAt, instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  claimTerminateDue(conn: Conn, now: Date, limit: number): Promise<Instance[]> {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          isNotNull(instances.terminateAt),
          isNull(instances.endTime),
          lte(instances.terminateAt, now),
          inArray(instances.status, LIVE_STATES),
        ),
      )
      .orderBy(instances.terminateAt, instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

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
