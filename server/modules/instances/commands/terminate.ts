import { alreadyDone, canAct } from '../../../../shared/rules/instance-lifecycle';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { renterEnding } from '../plans/end-reasons';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { EndReason } from '../types';
import { refuse } from './refuse';

/**
 * Ends an instance for good, with what its plan gives back (a rental is settled). One already
 * terminating or ended is answered as it is (docs/decisions/018): a retried terminate, or one
 * after a rental's stop, succeeds.
 */
export function terminateCommand(ctx: InstancesContext, plans: Plans) {
  return (actor: Actor, id: number, now: Date, by: EndReason = 'user'): Promise<InstanceRow> =>
    ctx.accounts.transact(async (tx) => {
      const row = authorize(actor, 'terminate', await instancesRepo.lockView(tx, id));
      if (alreadyDone(stateOf(row.instance), 'terminate')) return row;
      if (!canAct(stateOf(row.instance), 'terminate')) refuse(row.instance, 'terminate');
      const how = renterEnding(by, row.instance, now);
      const instance = await planOf(plans, row.instance).end(tx, row.instance, how);
      return { ...row, instance };
    });
}
