import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { hostOfflineForStart } from '../../../lib/errors';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import { refuse } from './refuse';

/**
 * Starts a stopped instance again, its host reachable (metered: one hour of balance and a free
 * unit needed).
 */
export function startCommand(ctx: InstancesContext, plans: Plans) {
  return (actor: Actor, id: number, now: Date): Promise<InstanceRow> =>
    ctx.accounts.transact(async (tx) => {
      const row = authorize(actor, 'start', await instancesRepo.lockView(tx, id));
      if (!canAct(stateOf(row.instance), 'start')) refuse(row.instance, 'start');
      // Not while its host is dark: a stopped instance waits for its host, a starting one would
      // fail after 20 unreachable minutes (FAILS_WHEN_UNREACHABLE) and end.
      if (row.instance.unreachableSince !== null) throw hostOfflineForStart();
      const instance = await planOf(plans, row.instance).start(tx, row.instance, now);
      return { ...row, instance };
    });
}
