import { alreadyDone } from '../../../../shared/rules/instance-lifecycle';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext, StopLocked } from '../context';
import { type Plans, planOf } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { EndReason } from '../types';

/**
 * A renter's stop, as the instance's plan has it (plans/plan.ts `stop`): a rental ends with
 * its settlement (stopping twice changes nothing); a metered instance stops being charged
 * for compute, its disk kept. `by` is the end reason a rental is settled with. A stop asked
 * of an instance already stopping, stopped or ended is answered with it as it is
 * (docs/decisions/018): a retried stop succeeds.
 */
/** Every stop, the row locked: through the instance's plan (`InstancesContext.stopLocked`). */
export const stopLockedCommand =
  (plans: Plans): StopLocked =>
  (tx, instance, now, by) =>
    planOf(plans, instance).stop(tx, instance, now, by);

export function stopCommand(ctx: InstancesContext) {
  return (actor: Actor, id: number, now: Date, by: EndReason = 'user'): Promise<InstanceRow> =>
    ctx.accounts.transact(async (tx) => {
      const row = authorize(actor, 'stop', await instancesRepo.lockView(tx, id));
      if (alreadyDone(stateOf(row.instance), 'stop')) return row;
      const instance = await ctx.stopLocked(tx, row.instance, now, by);
      return { ...row, instance };
    });
}
