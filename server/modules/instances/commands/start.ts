import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { type Actor, authorize } from '../authorize';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { InstanceEvent } from '../types';
import { refuse } from './refuse';

/** Starts a stopped instance again (metered: one hour of balance and a free unit needed). */
export function startCommand(ctx: InstancesContext, plans: Plans) {
  return (actor: Actor, id: number, now: Date): Promise<InstanceRow> => {
    const told: InstanceEvent[] = [];
    return ctx.forHost(async (tx) => {
      const row = authorize(actor, 'start', await instancesRepo.lockView(tx, id));
      if (!canAct(stateOf(row.instance), 'start')) refuse(row.instance, 'start');
      const instance = await planOf(plans, row.instance).start(tx, row.instance, now, told);
      return { ...row, instance };
    }, told);
  };
}
