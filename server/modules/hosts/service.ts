import type { Clock } from '../../lib/clock';
import type { HostReport, InstancesService } from '../instances/service';

export type { HostReport } from '../instances/service';

/**
 * The seam between hosts and the instance core (DESIGN.md section 3a): hosts call out,
 * the server never calls in. Whatever a host learns about an instance — ready and where
 * to connect, stopped, terminated, failed — enters the core through `report`, and only
 * there. The in-process demo host (demo-host.ts) reports through it too.
 */
export function createHostsService(deps: { instances: InstancesService; clock: Clock }) {
  return {
    /**
     * A host's report of one instance's transition. Ignored when it names an older
     * generation than the instance's (the host acted on a desired state since replaced)
     * or a transition the lifecycle lacks. Answers the generation the host should know.
     */
    report(report: HostReport): Promise<{ accepted: boolean; generation: number }> {
      return deps.instances.applyHostReport(report, deps.clock.now());
    },

    /** What a host should converge: its instances awaiting a transition, with generations. */
    desiredState(hostId: string, limit = 100) {
      return deps.instances.pendingOnHost(hostId, limit);
    },
  };
}

export type HostsService = ReturnType<typeof createHostsService>;
