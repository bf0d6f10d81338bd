import { simulatedUsage } from '../instances/reads/vm-presenter';
import type { InstancesService } from '../instances/service';
import type { HostsService } from './service';

/** The id of the in-process demo host; listings flagged as demo hosts place instances here. */
export const DEMO_HOST_ID = 'demo';

const SSH_PORT_FIRST = 22_000;
const SSH_PORT_LAST = 31_999;

/** A demo host's SSH address: it says what it is. */
export function demoHostFor(listingId: number): string {
  return `gpu-${listingId}.demo.rentgpu.dev`;
}

/**
 * The demo host: an in-process host that pretends to run instances. It reads its desired
 * state like a real agent would and reports each transition through the hosts service —
 * ready (with an SSH address and a port no live instance uses) `delayMs` after creation or
 * a start, stopped and terminated at once. Its GPU use is simulated (vm-presenter.ts
 * `simulatedUsage`, labelled on the card), and idle stop reads those figures
 * (docs/decisions/019).
 */
export function createDemoHost(deps: {
  hosts: HostsService;
  instances: InstancesService;
  delayMs: number;
}) {
  return {
    /** One pass: reports what is due; returns how many reports were taken. */
    async converge(now: Date, limit = 50): Promise<number> {
      let accepted = 0;
      for (const instance of await deps.hosts.desiredState(DEMO_HOST_ID, limit)) {
        const base = { instanceId: instance.id, generation: instance.generation };
        let result: { accepted: boolean } | null = null;
        if (instance.status === 'provisioning' || instance.status === 'starting') {
          const readyAt = new Date(instance.stateChangedAt.getTime() + deps.delayMs);
          if (readyAt > now) continue;
          const port = await deps.instances.freePort(SSH_PORT_FIRST, SSH_PORT_LAST);
          if (port === null) continue;
          try {
            result = await deps.hosts.report({
              ...base,
              state: 'running',
              at: readyAt,
              connection: {
                sshHost: demoHostFor(instance.gpuListingId),
                sshPort: port,
                sshUsername: 'ubuntu',
              },
            });
          } catch {
            // Two hosts picked the same free port (a unique index refuses the second): the
            // next pass tries again.
            continue;
          }
        } else if (instance.status === 'stopping') {
          result = await deps.hosts.report({ ...base, state: 'stopped', at: now });
        } else if (instance.status === 'terminating') {
          result = await deps.hosts.report({ ...base, state: 'terminated', at: now });
        }
        if (result?.accepted) accepted += 1;
      }
      // Its GPUs are simulated (the VM card says so): idle stop reads the same figures.
      await deps.instances.heardSimulated(
        DEMO_HOST_ID,
        (id) => simulatedUsage(id, now).gpu_usage ?? 0,
        now,
      );
      return accepted;
    },
  };
}

export type DemoHost = ReturnType<typeof createDemoHost>;
