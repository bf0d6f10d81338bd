import {
  type DesiredInstance,
  desiredInstance,
  type HeartbeatRequest,
} from '../../../../shared/contracts/agent-protocol';
import type { InstanceKind } from '../../../../shared/contracts/instance-kind';
import { fitShape, gpuShare } from '../../../../shared/rules/gpu-share';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import { randomToken } from '../../../lib/crypto';
import { imageOfTemplate } from '../../images/catalogue';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';

/**
 * What a host should run for each of its instances: the desired object of the agent protocol
 * (docs/decisions/008), built from the instance row and the host's inventory. The instance
 * core's own knowledge — which state asks for what, what a VM and a container carry, the
 * shape an instance gets on its host — so the hosts module only carries the answer.
 */

/** A host's machine and GPUs as its heartbeat reports them. */
export type HostInventory = Pick<HeartbeatRequest, 'host' | 'gpus'>;

/** What the server wants of an instance in each of its states. */
const DESIRED_STATE: Record<InstanceState, DesiredInstance['state']> = {
  provisioning: 'running',
  running: 'running',
  starting: 'running',
  stopping: 'stopped',
  stopped: 'stopped',
  terminating: 'terminated',
  failed: 'terminated',
  terminated: 'terminated',
};

/**
 * What a unit of a listing gets on its host: the instance's own shape (its memory in MiB as
 * fitted at creation, else what it asked in GB), but never more than one GPU's share of the
 * machine (shared/rules/gpu-share.ts): of its cores, and of the memory it lets guests use
 * (AGENT_GUEST_MEMORY_MIB, else 80%). A host with 2 GPUs, 16 cores and 64 GB gives each
 * 8 vCPUs and 25.6 GB.
 */
export function shapeOnHost(
  instance: Pick<Instance, 'cpus' | 'memoryGb'> & { memoryMib?: number | null },
  inventory: HeartbeatRequest['host'],
  gpuCount: number,
): { cpus: number; memoryMib: number } {
  const share = gpuShare({
    cores: inventory.cpu.cores,
    totalBytes: inventory.memory.totalBytes,
    guestBytes: inventory.memory.guestBytes,
    gpuCount,
  });
  return fitShape(
    { cpus: instance.cpus, memoryMib: instance.memoryMib ?? instance.memoryGb * 1024 },
    share,
  );
}

/** A new instance's VNC password (placement gives each one; the agent protocol requires it). */
export const vncPassword = () => randomToken(6).slice(0, 8);

/** The kinds of instance a host's agent runs (AGENT_DRIVERS; an older agent: VMs only). */
export const driversOf = (inventory: HostInventory): readonly InstanceKind[] =>
  inventory.host.drivers ?? ['vm'];

/**
 * The desired object of one instance, checked against the protocol. A stored value the
 * contract refuses (a row written before a check existed) must not fail the whole heartbeat,
 * and with it every other renter's instance on the host: the offending fields fall back to
 * safe values (the default user, no key, no setup), and an object that still does not fit is
 * left out of the answer (the host then stops it and keeps its disk, as for an orphan). Both
 * are logged.
 */
export function desiredFor(
  row: Instance,
  inventory: HostInventory,
  log?: { error(obj: object, msg: string): void },
): DesiredInstance | null {
  // A host whose agent runs no containers never gets one (the rent refuses it first: its
  // verdict does not offer containers); it times out provisioning and is given back in full.
  if (row.kind === 'container' && !driversOf(inventory).includes('container')) {
    log?.error(
      { instanceId: row.id, hostId: row.hostId },
      'heartbeat: a container on a host whose agent runs no containers; left out of the answer',
    );
    return null;
  }
  const object = desiredObject(row, inventory);
  const checked = desiredInstance.safeParse(object);
  if (checked.success) return checked.data;
  const field = desiredInstance.shape;
  const repaired = desiredInstance.safeParse({
    ...object,
    sshUser: field.sshUser.safeParse(object.sshUser).success ? object.sshUser : 'ubuntu',
    sshPublicKeys: object.sshPublicKeys.filter(
      (k) => field.sshPublicKeys.element.safeParse(k).success,
    ),
    platformSshPublicKey: field.platformSshPublicKey.safeParse(object.platformSshPublicKey).success
      ? object.platformSshPublicKey
      : null,
    userData: field.userData.safeParse(object.userData).success ? object.userData : null,
  });
  log?.error(
    { instanceId: row.id, hostId: row.hostId, issues: checked.error.issues },
    repaired.success
      ? 'heartbeat: a stored instance did not fit the agent protocol; sent with safe values'
      : 'heartbeat: a stored instance does not fit the agent protocol; left out of the answer',
  );
  return repaired.success ? repaired.data : null;
}

/**
 * What a VM and a container each carry (docs/decisions/025): a VM its OS image, setup and VNC
 * password; a container its OCI image, no setup (its image is its template) and a VNC password
 * only because the protocol requires one (no VNC server listens for it).
 */
function kindFields(
  row: Instance,
): Pick<DesiredInstance, 'kind' | 'container' | 'vncPassword' | 'userData' | 'image'> {
  if (row.kind === 'container' && row.containerImage !== null) {
    return {
      kind: 'container',
      container: { image: row.containerImage },
      vncPassword: row.vncPassword ?? vncPassword(),
      userData: null,
      image: null,
    };
  }
  return {
    kind: 'vm',
    container: null,
    vncPassword: row.vncPassword ?? vncPassword(),
    userData: row.userData,
    image: imageOfTemplate(row.template),
  };
}

function desiredObject(row: Instance, inventory: HostInventory): DesiredInstance {
  const shape = shapeOnHost(row, inventory.host, inventory.gpus.gpus.length);
  return {
    id: String(row.id),
    generation: row.generation,
    state: DESIRED_STATE[stateOf(row)] ?? 'running',
    ...kindFields(row),
    cpus: shape.cpus,
    memoryMib: shape.memoryMib,
    diskGib: Math.max(1, row.storageGb),
    gpuIndexes: row.gpuIndexes,
    sshUser: row.sshUsername,
    sshPublicKeys: row.sshPublicKeys.slice(0, 20),
    platformSshPublicKey: row.platformSshPublicKey,
  };
}
