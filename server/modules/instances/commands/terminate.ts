import { alreadyDone, canAct } from '../../../../shared/rules/instance-lifecycle';
import { conflict, notFound } from '../../../lib/errors';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { type Plans, planOf, termsOf } from '../plans';
import { ending, renterEnding } from '../plans/end-reasons';
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
/**
 * Takes an instance's GPU back before its renter ends it: only an instance whose plan
 * declares it preemptible (`PlanCapabilities.preemptible`; none of the shipped plans does),
 * ended as `preempted` with what its plan gives back. Anything else is 409, unchanged.
 */
export function preemptCommand(ctx: InstancesContext, plans: Plans) {
  return (id: number, now: Date): Promise<InstanceRow> =>
    ctx.accounts.transact(async (tx) => {
      const row = await instancesRepo.lockView(tx, id);
      if (!row) throw notFound('Instance');
      if (!termsOf(row.instance).capabilities.preemptible) {
        throw conflict('This instance is not on a plan that can be preempted.');
      }
      if (alreadyDone(stateOf(row.instance), 'terminate')) return row;
      if (!canAct(stateOf(row.instance), 'terminate')) refuse(row.instance, 'terminate');
      const how = ending('preempted', row.instance, now);
      const instance = await planOf(plans, row.instance).end(tx, row.instance, how);
      return { ...row, instance };
    });
}

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
