import { describe, expect, it } from 'vitest';
import type { GpuInfo } from '../../shared/contracts/agent-protocol';
import { DriverError } from '../driver';
import { type CreateArgs, cdiDevices, createArgs } from './args';
import { MOUNT } from './ssh';

const gpu = (index: number, more: Partial<GpuInfo> = {}): GpuInfo => ({
  index,
  name: 'NVIDIA H100 80GB HBM3',
  uuid: `GPU-0000000${index}-aaaa-bbbb-cccc-dddddddddddd`,
  memoryTotalMib: 81559,
  memoryUsedMib: 0,
  utilizationPercent: 0,
  temperatureC: 30,
  pciBusId: `00000000:0${index}:00.0`,
  ...more,
});
const GPUS = [gpu(0), gpu(1), gpu(2)];

const base = (more: Partial<CreateArgs> = {}): CreateArgs => ({
  name: 'rentgpu-i1',
  id: 'i1',
  spec: { cpus: 4, memoryMib: 16384, diskGib: 50, gpuIndexes: [1] },
  imageId: `sha256:${'a'.repeat(64)}`,
  imageCommand: ['python', '-m', 'http.server'],
  network: 'rentgpu-i1',
  listenHost: '10.0.0.5',
  sshPort: 42022,
  bundleDir: '/var/lib/rentgpu/container-ssh',
  accessDir: '/var/lib/rentgpu/containers/i1/access',
  devices: cdiDevices([1], GPUS, { kind: 'nvidia.com/gpu', name: 'uuid' }),
  pidsLimit: 4096,
  limits: { nofile: 1_048_576, nproc: 32768 },
  diskLimit: false,
  ...more,
});

/** Every value given to `flag` (`--flag value` pairs before the image). */
function values(args: string[], flag: string): string[] {
  const end = args.indexOf(base().imageId);
  const out: string[] = [];
  for (let i = 0; i < end; i++) if (args[i] === flag) out.push(args[i + 1] ?? '');
  return out;
}

describe('createArgs', () => {
  const args = createArgs(base());

  it('never runs privileged, never adds capabilities, devices or host namespaces', () => {
    for (const banned of ['--privileged', '--cap-add', '--device-cgroup-rule', '--pid', '--uts']) {
      expect(args.some((a) => a === banned || a.startsWith(`${banned}=`))).toBe(false);
    }
    expect(args.some((a) => /^(host|all)$/.test(a))).toBe(false);
    expect(values(args, '--security-opt')).toEqual(['no-new-privileges']);
    expect(values(args, '--userns')).toEqual(['auto:size=65536']);
    expect(values(args, '--ipc')).toEqual(['private']);
    expect(values(args, '--network')).toEqual(['rentgpu-i1']);
    expect(args).toContain('--init');
  });

  it("passes exactly the instance's CDI devices", () => {
    expect(values(args, '--device')).toEqual([
      'nvidia.com/gpu=GPU-00000001-aaaa-bbbb-cccc-dddddddddddd',
    ]);
    const two = createArgs(
      base({ devices: cdiDevices([0, 2], GPUS, { kind: 'nvidia.com/gpu', name: 'index' }) }),
    );
    expect(values(two, '--device')).toEqual(['nvidia.com/gpu=0', 'nvidia.com/gpu=2']);
    expect(values(createArgs(base({ devices: [] })), '--device')).toEqual([]);
  });

  it('limits pids, CPUs and memory with no swap beyond it, and the rlimits', () => {
    expect(values(args, '--pids-limit')).toEqual(['4096']);
    expect(values(args, '--cpus')).toEqual(['4']);
    expect(values(args, '--memory')).toEqual(['16384m']);
    expect(values(args, '--memory-swap')).toEqual(['16384m']);
    expect(values(args, '--ulimit')).toEqual(['nofile=1048576:1048576', 'nproc=32768:32768']);
  });

  it('limits the disk only where the store can', () => {
    expect(values(args, '--storage-opt')).toEqual([]);
    expect(values(createArgs(base({ diskLimit: true })), '--storage-opt')).toEqual(['size=50G']);
  });

  it('publishes SSH only on the listen host, and nothing else', () => {
    expect(values(args, '--publish')).toEqual(['10.0.0.5:42022:22/tcp']);
    expect(args.some((a) => a === '-p' || a === '-P' || a === '--publish-all')).toBe(false);
  });

  it('mounts the SSH bundle and the access files read-only, labels and names the container', () => {
    expect(values(args, '--volume')).toEqual([
      `/var/lib/rentgpu/container-ssh:${MOUNT}:ro`,
      `/var/lib/rentgpu/containers/i1/access:${MOUNT}/instance:ro,U`,
    ]);
    expect(values(args, '--name')).toEqual(['rentgpu-i1']);
    expect(values(args, '--label')).toEqual(['rentgpu.instance=i1']);
    expect(values(args, '--entrypoint')).toEqual([`${MOUNT}/entry.sh`]);
  });

  it('runs the image by id with its own command after `--`', () => {
    expect(args[0]).toBe('create');
    expect(args.slice(args.indexOf(base().imageId))).toEqual([
      base().imageId,
      '--',
      'python',
      '-m',
      'http.server',
    ]);
  });
});

describe('cdiDevices', () => {
  it('names GPUs by UUID, or by index when asked or without one', () => {
    expect(cdiDevices([0, 2], GPUS, { kind: 'k/gpu', name: 'uuid' })).toEqual([
      'k/gpu=GPU-00000000-aaaa-bbbb-cccc-dddddddddddd',
      'k/gpu=GPU-00000002-aaaa-bbbb-cccc-dddddddddddd',
    ]);
    expect(
      cdiDevices([2], [gpu(2, { uuid: null })], {
        kind: 'k/gpu',
        name: 'uuid',
      }),
    ).toEqual(['k/gpu=2']);
    expect(cdiDevices([], GPUS, { kind: 'k/gpu', name: 'uuid' })).toEqual([]);
  });

  it('refuses a GPU the host lacks and one bound to vfio-pci', () => {
    expect(() => cdiDevices([7], GPUS, { kind: 'k/gpu', name: 'uuid' })).toThrow(DriverError);
    expect(() =>
      cdiDevices([1], [gpu(1, { boundTo: 'vfio-pci' })], {
        kind: 'k/gpu',
        name: 'uuid',
      }),
    ).toThrow(/vfio-pci/);
  });
});
