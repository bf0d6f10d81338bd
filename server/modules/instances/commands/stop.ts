import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import type { EndReason } from '../types';

/**
 * A renter's stop, as the instance's plan has it (plans/plan.ts `stop`): a rental ends with
 * its settlement (stopping twice changes nothing); a metered instance stops being charged
 * for compute, its disk kept. `by` is the end reason a rental is settled with.
 */
export function stopCommand(ctx: InstancesContext, plans: Plans) {
  return (actor: Actor, id: number, now: Date, by: EndReason = 'user'): Promise<InstanceRow> =>
    ctx.forHost(async (tx) => {
      const row = authorize(actor, 'stop', await instancesRepo.lockView(tx, id));
      const instance = await planOf(plans, row.instance).stop(tx, row.instance, now, by);
      return { ...row, instance };
    }, []);
}
