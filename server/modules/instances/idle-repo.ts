import { and, eq, gt, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { instances } from '../../db/schema';
import type { Instance } from './repo-rows';
import type { IdleStop } from './types';

/** The renter is warned this long before an idle stop (docs/decisions/019). */
export const IDLE_WARNING_MS = 10 * 60_000;
/** A console keeps moving `last_active_at` at most this often (its check runs every 5 s). */
export const CONSOLE_ACTIVITY_EVERY_MS = 60_000;

/** Live, running, reachable rows with idle stop on (the partial index instances_idle_stop_idx). */
const idleStopOn = and(
  gt(instances.idleStopMinutes, 0),
  isNull(instances.endTime),
  eq(instances.status, 'running'),
  isNull(instances.unreachableSince),
);

/** When its idle period began: the last activity, or when it last became running if later. */
const idleSince = sql`greatest(coalesce(${instances.lastActiveAt}, ${instances.stateChangedAt}), ${instances.stateChangedAt})`;
/** `idleSince` plus its idle-stop minutes, less `leadMs`, has come by `now`. */
const idleBy = (now: Date, leadMs: number): SQL =>
  sql`${idleSince} + ${instances.idleStopMinutes} * interval '1 minute' - ${leadMs} * interval '1 millisecond' <= ${now.toISOString()}::timestamptz`;

/** What the idle-stop job does with a claimed row. */
export type IdleDue = { instance: Instance; action: 'warn' | 'stop' };

/**
 * Idle stop's rows (issue 23, part 4; docs/decisions/019): one "last active at" per instance,
 * moved by heartbeats whose GPUs read over the threshold and by open web consoles.
 */
export const idleRepo = {
  /**
   * Running rows with idle stop on that are due: a warning (not yet warned, within 10 minutes
   * of the stop) or the stop (idle for the full minutes and warned at least 10 minutes ago),
   * oldest first, locked FOR UPDATE SKIP LOCKED: two workers never claim one row.
   */
  async claimDue(conn: Conn, now: Date, limit: number): Promise<IdleDue[]> {
    const warnedLongEnough = lt(
      instances.idleWarnedAt,
      new Date(now.getTime() - IDLE_WARNING_MS + 1),
    );
    const rows = await conn
      .select()
      .from(instances)
      .where(
        and(
          idleStopOn,
          idleBy(now, IDLE_WARNING_MS),
          or(isNull(instances.idleWarnedAt), and(idleBy(now, 0), warnedLongEnough)),
        ),
      )
      .orderBy(instances.lastActiveAt, instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    return rows.map((instance) => ({
      instance,
      action: instance.idleWarnedAt === null ? 'warn' : 'stop',
    }));
  },

  async warned(conn: Conn, id: number, now: Date): Promise<void> {
    await conn.update(instances).set({ idleWarnedAt: now }).where(eq(instances.id, id));
  },

  async stopped(conn: Conn, id: number): Promise<void> {
    await conn
      .update(instances)
      .set({ idleWarnedAt: null, endReason: 'idle_stop' })
      .where(eq(instances.id, id));
  },

  /**
   * These instances were active at `now` (a GPU over the threshold, a console open): the
   * idle period starts again and a warning given is withdrawn. Only running rows with idle
   * stop on are written; `everyMs` skips rows moved that recently (a console's checks).
   */
  async markActive(conn: Conn, ids: number[], now: Date, everyMs = 0): Promise<void> {
    if (ids.length === 0) return;
    const stale = new Date(now.getTime() - everyMs);
    await conn
      .update(instances)
      .set({ lastActiveAt: now, idleWarnedAt: null })
      .where(
        and(
          inArray(instances.id, ids),
          idleStopOn,
          or(
            isNull(instances.lastActiveAt),
            lt(instances.lastActiveAt, stale),
            isNotNull(instances.idleWarnedAt),
          ),
        ),
      );
  },

  /** Running rows on `hostId` with idle stop on: their GPUs and threshold (the demo host). */
  watchedOnHost(conn: Conn, hostId: string) {
    return conn
      .select({
        id: instances.id,
        gpuIndexes: instances.gpuIndexes,
        thresholdPercent: instances.idleThresholdPercent,
      })
      .from(instances)
      .where(and(eq(instances.hostId, hostId), idleStopOn));
  },

  /** Sets a locked row's idle stop (0 minutes turns it off); a new idle period begins. */
  async set(conn: Conn, id: number, idle: IdleStop, now: Date): Promise<void> {
    await conn
      .update(instances)
      .set({
        idleStopMinutes: idle.minutes,
        idleThresholdPercent: idle.thresholdPercent,
        lastActiveAt: now,
        idleWarnedAt: null,
      })
      .where(eq(instances.id, id));
  },
};
