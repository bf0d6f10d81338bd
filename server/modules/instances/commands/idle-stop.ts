import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { conflict } from '../../../lib/errors';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { CONSOLE_ACTIVITY_EVERY_MS, idleRepo } from '../idle-repo';
import { termsOf } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { IdleStop } from '../types';
import { refuse } from './refuse';

/** A host's GPU readings at a heartbeat, as the idle rule reads them. */
export interface GpuReading {
  index: number;
  utilizationPercent: number | null;
}

/**
 * Whether an instance on `indexes` was active at a reading: any of its GPUs at or over the
 * threshold, or no reading for its GPUs at all (idle stop never acts on missing data).
 */
export function activeAt(indexes: number[], gpus: GpuReading[], thresholdPercent: number) {
  const mine = gpus.filter((g) => indexes.includes(g.index) && g.utilizationPercent !== null);
  if (mine.length === 0) return true;
  return mine.some((g) => (g.utilizationPercent ?? 0) >= thresholdPercent);
}

/**
 * Idle stop (issue 23, part 4; docs/decisions/019): the renter's setting, activity from
 * heartbeats (GPU use, SSH sessions) and web consoles, and the worker's job that warns and
 * then stops. The stop goes through the instance's plan exactly as the renter's own stop
 * (commands/stop.ts): disk kept, no minute charged after it.
 */
export function idleStopCommands(ctx: InstancesContext) {
  return {
    /**
     * Sets idle stop on the owner's live metered instance (0 minutes turns it off; a field
     * left out stays as it is); a new idle period begins now.
     */
    setIdleStop: (
      actor: Actor,
      id: number,
      idle: Partial<IdleStop>,
      now: Date,
    ): Promise<InstanceRow> =>
      ctx.accounts.transact(async (tx) => {
        const row = authorize(actor, 'deadlines', await instancesRepo.lockView(tx, id));
        if (!termsOf(row.instance).capabilities.stopKeepsDisk) {
          throw conflict(
            'A rental ends at the end of its booked hours; idle stop is for metered instances.',
          );
        }
        if (!canAct(stateOf(row.instance), 'terminate')) refuse(row.instance, 'idle-stop');
        const { idleStopMinutes, idleThresholdPercent } = row.instance;
        await idleRepo.set(
          tx,
          id,
          {
            minutes: idle.minutes ?? idleStopMinutes ?? 0,
            thresholdPercent: idle.thresholdPercent ?? idleThresholdPercent,
          },
          now,
        );
        const fresh = await instancesRepo.lockView(tx, id);
        if (!fresh) throw new Error('instance vanished');
        return fresh;
      }),

    /** Instances whose GPU use is simulated (the demo host): active when the figure says so. */
    async heardSimulated(
      hostId: string,
      usageOf: (id: number) => number,
      now: Date,
    ): Promise<void> {
      const watched = await idleRepo.watchedOnHost(ctx.db, hostId);
      const active = watched.filter((w) => usageOf(w.id) >= w.thresholdPercent).map((w) => w.id);
      await idleRepo.markActive(ctx.db, active, now, CONSOLE_ACTIVITY_EVERY_MS);
    },

    /** A web console open on the instance (its status check): activity, at most once a minute. */
    consoleActive: (id: number, now: Date): Promise<void> =>
      idleRepo.markActive(ctx.db, [id], now, CONSOLE_ACTIVITY_EVERY_MS),

    /**
     * Job: running instances idle for their minutes less 10 are warned (once; an event, so an
     * e-mail where the renter's settings allow, and the card's banner from `idle_warned_at`);
     * those idle for the full minutes and warned at least 10 minutes ago are stopped, the end
     * reason `idle_stop`, and told why (each change's event).
     */
    idleStops: (now: Date, batch = 100): Promise<number> =>
      ctx.accounts.transact(async (tx) => {
        const due = await idleRepo.claimDue(tx, now, batch);
        for (const { instance, action } of due) {
          if (action === 'warn') {
            await idleRepo.warned(tx, instance.id, now);
            continue;
          }
          await ctx.stopLocked(tx, instance, now, 'idle_stop');
          await idleRepo.stopped(tx, instance.id);
        }
        return due.length;
      }),
  };
}
