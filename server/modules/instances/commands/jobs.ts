import type { Tx } from '../../../db/client';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { type EndingName, ending } from '../plans/end-reasons';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';

/**
 * The worker's instance jobs that are no plan's own: instances not ready by their deadline,
 * and instances whose host stayed unreachable. Each claims its due rows (FOR UPDATE SKIP
 * LOCKED) and ends them through their plans; their events tell their renters.
 */
export function instanceJobsCommands(ctx: InstancesContext, plans: Plans) {
  async function endAll(
    claim: (tx: Tx) => Promise<Instance[]>,
    name: EndingName,
    now: Date,
  ): Promise<number> {
    return ctx.accounts.transact(async (tx) => {
      const due = await claim(tx);
      for (const instance of due) {
        await planOf(plans, instance).end(tx, instance, ending(name, instance, now));
      }
      return due.length;
    });
  }

  return {
    /** Job: cancels (booked, refunded in full) or fails (metered) instances not ready in time. */
    failOverdueProvisioning: (now: Date, batch = 50): Promise<number> =>
      endAll((tx) => instancesRepo.claimOverdue(tx, now, batch), 'provisioningTimeout', now),

    /**
     * Job: instances whose host has been unreachable for `afterMs` (20 minutes) fail. A booked
     * one is settled, its unreachable time refunded; a metered one ends (its dark minutes were
     * never charged). The host is told to delete it if it ever comes back.
     */
    failUnreachable: (now: Date, afterMs: number, batch = 50): Promise<number> =>
      endAll(
        (tx) => instancesRepo.claimUnreachable(tx, new Date(now.getTime() - afterMs), batch),
        'hostUnreachable',
        now,
      ),
  };
}
