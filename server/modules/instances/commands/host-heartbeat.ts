import type { DesiredInstance, InstanceStatus } from '../../../../shared/contracts/agent-protocol';
import { AppError } from '../../../lib/errors';
import type { InstancesContext } from '../context';
import { desiredFor, type HostInventory } from '../host-side/desired';
import { hostInstancesRepo } from '../host-side/host-repo';
import { idleRepo } from '../idle-repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { HostReport } from '../types';
import type { hostStatusCommand } from './host-status';
import { activeAt } from './idle-stop';
import type { placeCommand } from './place';

/** What a host's heartbeat tells the instance core. */
export interface HostHeartbeat {
  hostId: string;
  /** The heartbeat's `instances`: what the host says of each instance it holds. */
  statuses: readonly InstanceStatus[];
  /** Its machine and GPUs, with this heartbeat's GPU readings. */
  inventory: HostInventory;
  /**
   * A running status's addresses as this host may report them (the hosts module's address
   * policy, docs/decisions/013); an AppError under 500 refuses that one status.
   */
  connectionOf: (status: InstanceStatus) => HostReport['connection'];
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * A host's heartbeat, in the instance core (docs/decisions/008): the host's rows are read
 * once; its GPU readings and SSH sessions are idle stop's activity; the statuses the server
 * missed (a lost report) are applied, and only the rows they changed are read again; pending
 * instances are placed; the answer is every instance's desired object (desired.ts), in order
 * of id. The hosts module pages it and carries it to the agent; it never reads a status.
 */
export function hostHeartbeatCommand(
  ctx: InstancesContext,
  applyStatus: ReturnType<typeof hostStatusCommand>,
  place: ReturnType<typeof placeCommand>,
) {
  const { db } = ctx;

  /**
   * Idle stop (commands/idle-stop.ts, docs/decisions/019): running instances with idle stop
   * on whose GPUs read at or over their threshold (or have no reading), or with an SSH session
   * open, start a new idle period. From the rows already read; the write itself touches only
   * rows that still run with idle stop on and reachable (idleRepo.markActive).
   */
  async function recordActivity(rows: readonly Instance[], heard: HostHeartbeat, now: Date) {
    const withSsh = new Set(
      heard.statuses.filter((s) => (s.sshSessions ?? 0) > 0).map((s) => s.id),
    );
    const gpus = heard.inventory.gpus.gpus;
    const active = rows
      .filter((r) => (r.idleStopMinutes ?? 0) > 0 && stateOf(r) === 'running')
      .filter(
        (r) => withSsh.has(String(r.id)) || activeAt(r.gpuIndexes, gpus, r.idleThresholdPercent),
      )
      .map((r) => r.id);
    await idleRepo.markActive(db, active, now);
  }

  /** Applies each status about one of `rows`; the ids of the rows it changed. */
  async function applyStatuses(rows: readonly Instance[], heard: HostHeartbeat, now: Date) {
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const changed = new Set<number>();
    for (const status of heard.statuses) {
      const row = byId.get(status.id);
      if (!row) continue;
      try {
        const connection = () => heard.connectionOf(status);
        if (await applyStatus(row, status, now, { heartbeat: true, connection })) {
          changed.add(row.id);
        }
      } catch (error) {
        // One refused entry (an address not the host's, a port taken) is that instance's
        // problem: the rest of the heartbeat goes on, and the answer still lists it.
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        heard.log?.warn(
          { hostId: heard.hostId, instanceId: row.id, code: error.code, details: error.details },
          'heartbeat: an instance status was refused',
        );
      }
    }
    return [...changed];
  }

  return async (heard: HostHeartbeat, now: Date): Promise<DesiredInstance[]> => {
    let rows = await hostInstancesRepo.onHost(db, heard.hostId);
    await recordActivity(rows, heard, now);
    const changed = await applyStatuses(rows, heard, now);
    if (changed.length > 0) {
      // A changed row as it is now, or gone from the list (a host that let it go).
      const fresh = new Map(
        (await hostInstancesRepo.onHostByIds(db, heard.hostId, changed)).map((r) => [r.id, r]),
      );
      const moved = new Set(changed);
      rows = rows.flatMap((r) => (moved.has(r.id) ? (fresh.get(r.id) ?? []) : [r]));
    }
    rows = await place(heard.hostId, rows);
    return rows.map((row) => desiredFor(row, heard.inventory, heard.log)).filter((d) => d !== null);
  };
}
