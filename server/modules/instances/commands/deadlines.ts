import {
  deadlineOrderProblem,
  deadlineProblem,
  terminatesBeforeStop,
} from '../../../../shared/rules/deadlines';
import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { conflict, validationFailed } from '../../../lib/errors';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { deadlineRepo } from '../deadline-repo';
import { type Plans, planOf, termsOf } from '../plans';
import { ending } from '../plans/end-reasons';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { Deadlines } from '../types';
import { refuse } from './refuse';

/** How a surface names the two deadlines in its 400s (`stop_at` on /api/kvm, `stopAt` on /api/v1). */
export interface DeadlineFields {
  stopAt: string;
  terminateAt: string;
}

const CAMEL: DeadlineFields = { stopAt: 'stopAt', terminateAt: 'terminateAt' };

/**
 * Checks deadlines a renter asks for at `now`: each one set lies in the future and within a
 * year, and "terminate at" is not before "stop at" (shared/rules/deadlines.ts) — the one asked
 * for, else the one `stored` on the instance (a change names only what it changes); 400
 * VALIDATION_FAILED naming the surface's field: the terminate when one was sent, else the stop.
 */
export function checkDeadlines(
  deadlines: Deadlines,
  now: Date,
  fields: DeadlineFields = CAMEL,
  stored: { stopAt: Date | null; terminateAt: Date | null } = { stopAt: null, terminateAt: null },
) {
  const problems: Record<string, string[]> = {};
  for (const key of ['stopAt', 'terminateAt'] as const) {
    const at = deadlines[key];
    const problem = at ? deadlineProblem(at, now) : null;
    if (problem) problems[fields[key]] = [`${fields[key]} ${problem}`];
  }
  const stop = deadlines.stopAt === undefined ? stored.stopAt : deadlines.stopAt;
  const terminate =
    deadlines.terminateAt === undefined ? stored.terminateAt : deadlines.terminateAt;
  if (Object.keys(problems).length === 0 && terminatesBeforeStop(stop, terminate)) {
    if (deadlines.terminateAt) {
      problems[fields.terminateAt] = [
        deadlineOrderProblem(
          fields,
          'terminateAt',
          deadlines.stopAt ? undefined : (stop ?? undefined),
        ),
      ];
    } else {
      problems[fields.stopAt] = [deadlineOrderProblem(fields, 'stopAt', terminate ?? undefined)];
    }
  }
  if (Object.keys(problems).length > 0) throw validationFailed(problems);
}

/**
 * Deadlines (issue 23, part 5): a renter's "stop at" and "terminate at" on a metered
 * instance, and the worker's jobs that carry them out. The jobs act through the instance's
 * plan exactly as the renter's own stop and terminate do (commands/stop.ts, terminate.ts),
 * so billing settles the same; the end reason says it was the deadline, and the renter is
 * told (the change's event: an instance alert; the card shows the end reason).
 */
export function deadlineCommands(ctx: InstancesContext, plans: Plans) {
  return {
    /**
     * Sets, clears (null) or leaves (absent) an instance's deadlines: the owner's metered
     * instance only (a rental already ends with its booked hours), while it has not ended.
     */
    setDeadlines: (
      actor: Actor,
      id: number,
      deadlines: Deadlines,
      now: Date,
      fields: DeadlineFields = CAMEL,
    ): Promise<InstanceRow> =>
      ctx.accounts.transact(async (tx) => {
        const row = authorize(actor, 'deadlines', await instancesRepo.lockView(tx, id));
        if (!termsOf(row.instance).capabilities.stopKeepsDisk) {
          throw conflict(
            'A rental ends at the end of its booked hours; stop and terminate times are for metered instances.',
          );
        }
        // Refused as the change it is ("cannot change its deadlines"), not as a terminate.
        if (!canAct(stateOf(row.instance), 'terminate')) refuse(row.instance, 'deadlines');
        checkDeadlines(deadlines, now, fields, row.instance);
        await deadlineRepo.set(tx, id, deadlines);
        const fresh = await instancesRepo.lockView(tx, id);
        if (!fresh) throw new Error('instance vanished');
        return fresh;
      }),

    /**
     * Job: instances whose "stop at" has come are stopped as by their renter's own stop (disk
     * kept, compute no longer charged), the end reason `deadline_stop`. One already stopping or
     * stopped has its deadline cleared; a provisioning one waits until it runs.
     */
    stopAtDeadlines: (now: Date, batch = 100): Promise<number> =>
      ctx.accounts.transact(async (tx) => {
        const due = await deadlineRepo.claimStopDue(tx, now, batch);
        for (const instance of due) {
          if (!canAct(stateOf(instance), 'stop')) {
            await deadlineRepo.stopDone(tx, instance.id, null);
            continue;
          }
          await ctx.stopLocked(tx, instance, now, 'deadline_stop');
          await deadlineRepo.stopDone(tx, instance.id, 'deadline_stop');
        }
        return due.length;
      }),

    /** Job: instances whose "terminate at" has come end as by their renter's own terminate. */
    terminateAtDeadlines: (now: Date, batch = 100): Promise<number> =>
      ctx.accounts.transact(async (tx) => {
        const due = await deadlineRepo.claimTerminateDue(tx, now, batch);
        for (const instance of due) {
          await planOf(plans, instance).end(
            tx,
            instance,
            ending('deadlineTerminate', instance, now),
          );
        }
        return due.length;
      }),
  };
}
