import { alreadyDone } from '../../../../shared/rules/instance-lifecycle';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext, StopLocked } from '../context';
import { type PlanCapabilities, type Plans, planOf, termsNamed } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { EndReason } from '../types';

/** Every stop, the row locked: through the instance's plan (`InstancesContext.stopLocked`). */
export const stopLockedCommand =
  (plans: Plans): StopLocked =>
  (tx, instance, now, by) =>
    planOf(plans, instance).stop(tx, instance, now, by);

/**
 * Whether every plan listed on a surface stops in one statement (`stopAtOnce`): a stop asked
 * there is then tried that way first.
 */
function stopsAtOnce(plans: Plans, shows: PlanCapabilities['listedAs']): boolean {
  const listed = [...plans.values()].filter(
    (plan) => termsNamed(plan.name).capabilities.listedAs === shows,
  );
  return listed.length > 0 && listed.every((plan) => plan.stopAtOnce !== undefined);
}

/**
 * A renter's stop, as the instance's plan has it (plans/plan.ts `stop`): a rental ends with
 * its settlement (stopping twice changes nothing); a metered instance stops being charged
 * for compute, its disk kept. `by` is the end reason a rental is settled with. A stop asked
 * of an instance already stopping, stopped or ended is answered with it as it is
 * (docs/decisions/018): a retried stop succeeds.
 *
 * On a surface whose plans all stop in one statement (the marketplace's rentals), the row is
 * read without a lock and stopped in one statement at the generation read, with no
 * transaction (two statements, where the locked path takes five with its BEGIN and COMMIT);
 * a row changed meanwhile, or a stop the plan cannot make that way, takes the locked path.
 */
export function stopCommand(ctx: InstancesContext, plans: Plans) {
  const atOnce = new Map<PlanCapabilities['listedAs'], boolean>();
  const locked = (actor: Actor, id: number, now: Date, by: EndReason): Promise<InstanceRow> =>
    ctx.accounts.transact(async (tx) => {
      const row = authorize(actor, 'stop', await instancesRepo.lockView(tx, id));
      if (alreadyDone(stateOf(row.instance), 'stop')) return row;
      const instance = await ctx.stopLocked(tx, row.instance, now, by);
      return { ...row, instance };
    });
  return async (actor: Actor, id: number, now: Date, by: EndReason = 'user') => {
    const { shows } = actor;
    if (shows !== undefined) {
      if (!atOnce.has(shows)) atOnce.set(shows, stopsAtOnce(plans, shows));
      if (atOnce.get(shows)) {
        const row = authorize(actor, 'stop', await instancesRepo.findView(ctx.db, id));
        if (alreadyDone(stateOf(row.instance), 'stop')) return row;
        const plan = planOf(plans, row.instance);
        const stopped = await plan.stopAtOnce?.(ctx.db, row.instance, now, by);
        if (stopped) return { ...row, instance: stopped };
      }
    }
    return locked(actor, id, now, by);
  };
}
