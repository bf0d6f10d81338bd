import { holdsUnit } from '../../../../shared/rules/instance-lifecycle';
import { listingsService } from '../../listings/service';
import { sshKeysService } from '../../ssh-keys/service';
import type { InstancesContext } from '../context';
import { vncPassword } from '../host-side/desired';
import { hostInstancesRepo, type Placement } from '../host-side/host-repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';

/**
 * Placement on a host, at its heartbeat: fills in what the host needs before it can create
 * an instance — GPU indexes for a unit holder (the lowest free one its listing offers on
 * this host), the renter's SSH keys, a VNC password. A stopped instance gives its GPU back.
 * Every row it changes is written in one statement; returns the rows as they are now.
 */
export function placeCommand(ctx: InstancesContext) {
  const { db } = ctx;
  return async (hostId: string, rows: readonly Instance[]): Promise<Instance[]> => {
    const needKeys = new Set(
      rows.filter((r) => r.status === 'provisioning' && r.sshPublicKeys.length === 0),
    );
    const keysByUser = await sshKeysService.publicKeysOf(db, [
      ...new Set([...needKeys].map((r) => r.userId)),
    ]);
    const holds = (r: Instance) => holdsUnit(stateOf(r));
    const needGpu = rows.filter((r) => holds(r) && r.gpuIndexes.length === 0);
    const offered = await listingsService.gpuIndexesOnHost(db, hostId, [
      ...new Set(needGpu.map((r) => r.gpuListingId)),
    ]);
    const used = new Set(rows.filter(holds).flatMap((r) => r.gpuIndexes));
    const placed: Placement[] = [];
    const out: Instance[] = [];
    for (const row of rows) {
      const changes: Omit<Placement, 'id'> = {};
      if (row.vncPassword === null) changes.vncPassword = vncPassword();
      if (needKeys.has(row)) changes.sshPublicKeys = keysByUser.get(row.userId) ?? [];
      if (holds(row) && row.gpuIndexes.length === 0) {
        const free = (offered.get(row.gpuListingId) ?? []).find((i) => !used.has(i));
        if (free !== undefined) {
          used.add(free);
          changes.gpuIndexes = [free];
        }
      } else if (row.status === 'stopped' && row.gpuIndexes.length > 0) {
        changes.gpuIndexes = [];
      }
      if (Object.keys(changes).length > 0) placed.push({ id: row.id, ...changes });
      out.push({ ...row, ...changes });
    }
    await hostInstancesRepo.place(db, placed);
    return out;
  };
}
