import type { InstanceStatus } from '../../../../shared/contracts/agent-protocol';
import { ON_THE_WAY_STATES } from '../../../../shared/rules/instance-lifecycle';
import { isUniqueViolation } from '../../../db/errors';
import { sshPortInUse } from '../../../lib/errors';
import type { InstancesContext } from '../context';
import { hostInstancesRepo } from '../host-side/host-repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { HostReport } from '../types';
import { isCurrent } from './apply-host-report';

type Report = (report: HostReport, now: Date) => Promise<{ accepted: boolean; generation: number }>;

/** Does a heartbeat entry say something the server does not know yet? */
function isNews(instance: Instance, status: InstanceStatus): boolean {
  if (status.state === 'running')
    return instance.status === 'provisioning' || instance.status === 'starting';
  if (status.state === 'stopped') return instance.status === 'stopping';
  if (status.state === 'terminated') {
    return (
      instance.status === 'terminating' ||
      (instance.status === 'failed' && instance.hostReleasedAt === null)
    );
  }
  if (status.state === 'failed') return instance.endTime === null;
  return false;
}

/**
 * What a host says of one of its instances, `instance` as read with it: an agent's report
 * of one transition, or an entry of its heartbeat (which also recovers a lost report).
 * Whatever the host says enters the core through `report` (apply-host-report.ts).
 */
export function hostStatusCommand(ctx: InstancesContext, report: Report) {
  const { db } = ctx;

  /** A provisioning or starting instance's progress, when it says something new. */
  async function recordProgress(instance: Instance, status: InstanceStatus): Promise<void> {
    if (!ON_THE_WAY_STATES.includes(stateOf(instance))) return;
    if (status.state !== instance.status) return;
    const progress = status.progress ?? null;
    if (JSON.stringify(progress) === JSON.stringify(instance.provisioningProgress ?? null)) return;
    await hostInstancesRepo.recordProgress(db, instance.id, instance.generation, progress);
  }

  /**
   * Applies one status; true when it was taken. `connection` gives a ready instance's
   * addresses, checked by the hosts module (a refusal throws before anything moves); a
   * heartbeat entry (`heartbeat`) also records progress and is applied only when it is news.
   */
  return async (
    instance: Instance,
    status: InstanceStatus,
    at: Date,
    how: { heartbeat: boolean; connection: () => HostReport['connection'] },
  ): Promise<boolean> => {
    if (!isCurrent(instance, status.generation)) return false;
    // A container's image as its host resolved it: recorded when it says something new (once
    // a run, in practice), whatever else the status says. A VM has none.
    const digest = status.imageDigest;
    if (instance.kind === 'container' && digest && digest !== instance.imageDigest) {
      await hostInstancesRepo.recordImageDigest(db, instance.id, instance.generation, digest);
    }
    if (how.heartbeat) {
      if (status.progress !== undefined) await recordProgress(instance, status);
      if (!isNews(instance, status)) return false;
    }
    const base = { instanceId: instance.id, generation: status.generation, at };
    switch (status.state) {
      case 'running': {
        if (instance.status === 'running') return true;
        const connection = how.connection();
        try {
          return (
            await report({ ...base, state: 'running', ...(connection ? { connection } : {}) }, at)
          ).accepted;
        } catch (error) {
          // The reported port, else the one the instance keeps (a report without ssh).
          const port = connection?.sshPort ?? instance.sshPort;
          if (port != null && isUniqueViolation(error, 'instances_live_host_port_key')) {
            throw sshPortInUse(port);
          }
          throw error;
        }
      }
      case 'stopped': {
        if (instance.status === 'stopped') return true;
        return (await report({ ...base, state: 'stopped' }, at)).accepted;
      }
      case 'terminated': {
        if (instance.status === 'failed' || instance.status === 'terminated') {
          await hostInstancesRepo.release(db, instance.id, at);
          return true;
        }
        const result = await report({ ...base, state: 'terminated' }, at);
        if (result.accepted) await hostInstancesRepo.release(db, instance.id, at);
        return result.accepted;
      }
      case 'failed': {
        await hostInstancesRepo.recordHostError(db, instance.id, status.error);
        if (instance.status === 'failed') return true;
        return (await report({ ...base, state: 'failed' }, at)).accepted;
      }
      default:
        // provisioning, starting, stopping, terminating: the host is on its way; where it is
        // on the way to running is shown to the renter.
        if (status.progress !== undefined) await recordProgress(instance, status);
        return true;
    }
  };
}
