import type { DesiredInstance, GpuInfo } from '../../shared/contracts/agent-protocol';
import { DriverError } from '../driver';
import { MOUNT } from './ssh';

export interface CreateArgs {
  name: string;
  id: string;
  spec: Pick<DesiredInstance, 'cpus' | 'memoryMib' | 'diskGib' | 'gpuIndexes'>;
  /** The image id to run (resolved, so a re-tag of the reference changes nothing). */
  imageId: string;
  /** The image's own entrypoint and command, started in the background by ours. */
  imageCommand: string[];
  network: string;
  listenHost: string;
  sshPort: number;
  bundleDir: string;
  accessDir: string;
  /** CDI device names (`nvidia.com/gpu=GPU-…`), exactly the instance's GPUs. */
  devices: string[];
  pidsLimit: number;
  limits: { nofile: number; nproc: number };
  /** `--storage-opt size=` works (overlay on xfs with pquota, btrfs…); false: not passed. */
  diskLimit: boolean;
}

/**
 * `podman create` for an instance (docs/decisions/025). Isolation: no new privileges, its own
 * user namespace (`auto`: root inside is an unprivileged uid range on the host), podman's
 * default seccomp profile and capability set (nothing added), pids/CPU/memory limits with no
 * swap beyond memory, its own isolated network, SSH published only on the agent's listen
 * address. Never `--privileged`, never a device but the CDI ones named.
 */
/**
 * The isolation every container the agent runs gets — a renter's and `--check`'s trial alike
 * (docs/decisions/025): catatonit as init, an IPC namespace of its own, root inside mapped to
 * an unprivileged range (`--userns=auto`), no new privileges, pids/CPU/memory limits with no
 * swap beyond, and rlimits within the agent's own hard limits.
 */
export function isolationArgs(o: {
  pidsLimit: number;
  cpus: number;
  memoryMib: number;
  limits: { nofile: number; nproc: number };
}): string[] {
  return [
    '--init',
    // /dev/shm a tmpfs of the container's own, not a host mount under the store (with one,
    // `podman rm` after a stop/start failed: "userdata/shm: device or resource busy").
    '--ipc',
    'private',
    '--user',
    '0:0',
    '--userns',
    'auto:size=65536',
    '--security-opt',
    'no-new-privileges',
    '--pids-limit',
    String(o.pidsLimit),
    '--cpus',
    String(o.cpus),
    '--memory',
    `${o.memoryMib}m`,
    '--memory-swap',
    `${o.memoryMib}m`,
    '--ulimit',
    `nofile=${o.limits.nofile}:${o.limits.nofile}`,
    '--ulimit',
    `nproc=${o.limits.nproc}:${o.limits.nproc}`,
  ];
}

export function createArgs(a: CreateArgs): string[] {
  return [
    'create',
    '--name',
    a.name,
    '--label',
    `rentgpu.instance=${a.id}`,
    '--hostname',
    a.name.slice(0, 63),
    ...isolationArgs({
      pidsLimit: a.pidsLimit,
      cpus: a.spec.cpus,
      memoryMib: a.spec.memoryMib,
      limits: a.limits,
    }),
    ...(a.diskLimit ? ['--storage-opt', `size=${a.spec.diskGib}G`] : []),
    '--network',
    a.network,
    '--publish',
    `${a.listenHost}:${a.sshPort}:22/tcp`,
    '--log-opt',
    'max-size=10mb',
    '--volume',
    `${a.bundleDir}:${MOUNT}:ro`,
    // `U`: podman chowns the access files to the container's mapped root at every start, so
    // they stay owner-only on the host (ssh.ts `privateAccess`).
    '--volume',
    `${a.accessDir}:${MOUNT}/instance:ro,U`,
    ...a.devices.flatMap((d) => ['--device', d]),
    '--entrypoint',
    `${MOUNT}/entry.sh`,
    a.imageId,
    '--',
    ...a.imageCommand,
  ];
}

/**
 * The CDI names of the instance's GPUs: `<kind>=<uuid>` (the name nvidia-ctk gives each GPU
 * besides its index; stable when indexes move) or `<kind>=<index>` where the GPU has no UUID
 * or the host is set to use indexes.
 */
export function cdiDevices(
  gpuIndexes: readonly number[],
  gpus: readonly GpuInfo[],
  o: { kind: string; name: 'uuid' | 'index' },
): string[] {
  return gpuIndexes.map((index) => {
    const gpu = gpus.find((g) => g.index === index);
    if (!gpu) throw new DriverError(`GPU ${index} is not on this host`);
    if (gpu.boundTo === 'vfio-pci') {
      throw new DriverError(`GPU ${index} is bound to vfio-pci: only a VM can use it`);
    }
    return `${o.kind}=${o.name === 'uuid' && gpu.uuid ? gpu.uuid : String(index)}`;
  });
}
