import { acceptsReport } from '../../../../shared/rules/instance-lifecycle';
import type { InstancesContext } from '../context';
import { type Plans, planOf } from '../plans';
import { ending } from '../plans/end-reasons';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { HostReport } from '../types';

/**
 * The one generation rule: a host's word about an older generation than the instance's
 * (every state change adds one) is ignored. Applied once per status a host sends, under the
 * row's lock (the fast ready path has it in its statement).
 */
export const isCurrent = (instance: Pick<Instance, 'generation'>, generation: number) =>
  instance.generation === generation;

/**
 * The one way readiness, connection details and failures reach an instance: a host's
 * report. Ignored (accepted: false) when it names an older generation or a transition the
 * lifecycle does not have. Returns the instance's generation afterwards.
 */
export function applyHostReportCommand(ctx: InstancesContext, plans: Plans) {
  const { db, accounts } = ctx;
  return async (report: HostReport, now: Date) => {
    // A host's clock may be off, and a host is untrusted (docs/decisions/013): a report is
    // never in the future; the general path also never lets it precede the state it leaves.
    const at = report.at && report.at < now ? report.at : now;
    if (report.state === 'running') {
      // The common report, a provisioning instance's first readiness, is one statement.
      const ready = await instancesRepo.markReady(db, {
        id: report.instanceId,
        generation: report.generation,
        at,
        ...report.connection,
      });
      if (ready) return { accepted: true, generation: ready.generation };
    }
    const reportedAt = at;
    return accounts.transact(async (tx) => {
      const row = await instancesRepo.lockView(tx, report.instanceId);
      if (!row) return { accepted: false, generation: 0 };
      const instance = row.instance;
      const state = stateOf(instance);
      const plan = planOf(plans, instance);
      const ignored = { accepted: false, generation: instance.generation };
      if (!isCurrent(instance, report.generation)) return ignored;
      if (!acceptsReport(state, report.state)) return ignored;
      let moved: Instance | null = null;
      // Nothing an instance stores precedes its creation or the state it leaves (issue 39).
      const at = reportedAt < instance.stateChangedAt ? instance.stateChangedAt : reportedAt;
      if (report.state === 'running') {
        // A host ready only after the provisioning deadline is too late: the deadline job
        // cancels (booked) or fails it.
        if (state === 'provisioning' && at >= instance.provisioningDeadline) return ignored;
        const c = report.connection ?? {};
        moved = await instancesRepo.transition(tx, instance.id, [state], 'running', at, {
          ...(instance.readyAt === null ? { readyAt: at } : {}),
          ...(c.sshHost !== undefined ? { sshHost: c.sshHost } : {}),
          ...(c.sshPort !== undefined ? { sshPort: c.sshPort } : {}),
          ...(c.sshUsername !== undefined ? { sshUsername: c.sshUsername } : {}),
          ...(c.vncAddress !== undefined ? { vncAddress: c.vncAddress } : {}),
          sshHostKey: c.sshHostKey ?? null,
          sshHostKeyFingerprint: c.sshHostKeyFingerprint ?? null,
        });
        if (moved) {
          // Ready: booked hours and metered compute are billed from now (issue 39).
          moved = await plan.ready(tx, moved, at);
        }
      } else if (report.state === 'stopped' || report.state === 'terminated') {
        moved = await instancesRepo.transition(tx, instance.id, [state], report.state, at);
      } else if (state === 'terminating') {
        moved = await instancesRepo.transition(tx, instance.id, [state], 'failed', at);
      } else {
        moved = await plan.end(tx, instance, ending('hostReportedFailure', instance, at));
      }
      return { accepted: moved !== null, generation: moved?.generation ?? instance.generation };
    });
  };
}
