import { describe, expect, it } from 'vitest';
import type {
  ContainerProbe,
  GpuInfo,
  GpuInventory,
  HostInventory,
  ReadinessProbe,
} from '../contracts/agent-protocol';
import type { HostReadiness } from '../contracts/hosts';
import { REAL_H100_PROBE, VFIO_H100 } from '../fixtures/real-gpu/h100';
import {
  hostReadiness,
  listingBlocker,
  MIN_TOOLKIT_VERSION,
  readinessLine,
  readinessReport,
  toolkitEscapes,
} from './host-readiness';

/**
 * The real H100 host measured in shared/fixtures/real-gpu/ (README.md): the agent's own
 * nvidia-smi query, KVM usable, no IOMMU, the GPU on the `nvidia` driver at 0000:00:06.0.
 */
const REAL_H100: GpuInventory = {
  gpus: [
    {
      index: 0,
      name: 'NVIDIA H100 80GB HBM3',
      uuid: 'GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      memoryTotalMib: 81559,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      temperatureC: 44,
      pciBusId: '00000000:00:06.0',
    },
  ],
  error: null,
};
const REAL_PROBE: ReadinessProbe = { ...REAL_H100_PROBE, image: 'held' };

function host(probe: ReadinessProbe | undefined, over: Partial<HostInventory> = {}): HostInventory {
  return {
    hostname: 'h',
    cpu: { model: 'x', cores: 16 },
    memory: { totalBytes: 128 * 1024 ** 3, availableBytes: 100 * 1024 ** 3 },
    disk: { path: '/var/lib/rentgpu-agent', totalBytes: 2e12, freeBytes: 1e12 },
    accelerator: 'kvm',
    ...(probe ? { readiness: probe } : {}),
    ...over,
  };
}

/** Two GPUs bound to vfio-pci on a host with an IOMMU: everything a VM needs. */
const TWO_GPUS: GpuInventory = {
  gpus: [0, 1].map((index) => ({
    ...(REAL_H100.gpus[0] as GpuInventory['gpus'][number]),
    index,
    pciBusId: `00000000:0${index + 1}:00.0`,
  })),
  error: null,
};
const READY_PROBE: ReadinessProbe = {
  ...REAL_PROBE,
  iommuGroups: 40,
  gpus: [
    { index: 0, iommuGroup: '12', driver: 'vfio-pci' },
    { index: 1, iommuGroup: '13', driver: 'vfio-pci' },
  ],
};

describe('hostReadiness', () => {
  it('a host with KVM, an IOMMU and GPUs on vfio-pci is ready, every GPU with it', () => {
    const r = hostReadiness(host(READY_PROBE), TWO_GPUS);
    expect(r).toMatchObject({ ready: true, virtualisation: 'hardware', problems: [] });
    expect(r.readyGpus).toEqual([0, 1]);
    expect(readinessLine(r)).toBe('ready');
  });

  it('the real H100 host (KVM yes, no IOMMU) is not ready, and says why and how to fix it', () => {
    const r = hostReadiness(host(REAL_PROBE), REAL_H100);
    expect(r.ready).toBe(false);
    expect(r.virtualisation).toBe('hardware');
    expect(r.readyGpus).toEqual([]);
    expect(r.gpus[0]?.ready).toBe(false);
    expect(r.gpus[0]?.problems[0]?.reason).toMatch(/^No IOMMU/);
    expect(r.gpus[0]?.problems[0]?.fix).toMatch(/intel_iommu=on/);
    expect(readinessLine(r)).toMatch(/^not ready: No GPU can be passed through to a VM\. No IOMMU/);
  });

  it('with an IOMMU but the GPU on the nvidia driver, names the binding and the fix', () => {
    const probe = {
      ...REAL_PROBE,
      iommuGroups: 20,
      gpus: [{ index: 0, iommuGroup: '7', driver: 'nvidia' }],
    };
    const r = hostReadiness(host(probe), REAL_H100);
    expect(r.gpus[0]?.problems).toEqual([
      {
        reason: 'GPU 0 (00000000:00:06.0) is bound to nvidia, not vfio-pci.',
        fix: 'Bind it to vfio-pci (for example: driverctl set-override 0000:00:06.0 vfio-pci).',
      },
    ]);
  });

  it('one GPU ready of two: the host is ready and sells only that one', () => {
    const probe = {
      ...READY_PROBE,
      gpus: [
        READY_PROBE.gpus[0] as ReadinessProbe['gpus'][number],
        { index: 1, iommuGroup: '13', driver: 'nvidia' },
      ],
    };
    const r = hostReadiness(host(probe), TWO_GPUS);
    expect(r.ready).toBe(true);
    expect(r.readyGpus).toEqual([0]);
    expect(listingBlocker(r, [0, 1])).toBeNull();
    expect(listingBlocker(r, [1])?.reason).toMatch(/GPU 1 .* bound to nvidia/);
  });

  it('no GPUs: nvidia-smi failing or listing none is not ready', () => {
    const failing = hostReadiness(host(READY_PROBE), {
      gpus: [],
      error: 'nvidia-smi failed: nvidia-smi not found (no NVIDIA driver installed?)',
    });
    expect(failing.ready).toBe(false);
    expect(failing.problems[0]?.reason).toMatch(
      /^The NVIDIA driver does not answer: nvidia-smi failed/,
    );
    const none = hostReadiness(host(READY_PROBE), { gpus: [], error: null });
    expect(none.problems.map((p) => p.reason)).toEqual([
      'No GPU found: nvidia-smi lists none and none is bound to vfio-pci.',
    ]);
  });

  it('no virtualisation (no kvm_intel/kvm_amd, as on a kvm_pvm machine) is not ready', () => {
    const probe: ReadinessProbe = { ...READY_PROBE, kvmModule: null, devKvm: 'usable' };
    const r = hostReadiness(host(probe, { accelerator: 'none' }), TWO_GPUS);
    expect(r.ready).toBe(false);
    expect(r.virtualisation).toBe('none');
    expect(r.problems[0]?.reason).toBe(
      'No hardware virtualisation: neither kvm_intel nor kvm_amd is loaded.',
    );
    expect(r.gpus.every((g) => !g.ready)).toBe(true);
  });

  it('/dev/kvm the agent cannot open is its own reason, with the group fix', () => {
    const probe: ReadinessProbe = { ...READY_PROBE, devKvm: 'denied' };
    const r = hostReadiness(host(probe, { accelerator: 'none' }), TWO_GPUS);
    expect(r.problems[0]?.fix).toMatch(/kvm group/);
  });

  it('emulated (TCG) is said, and never sold for passthrough', () => {
    const probe: ReadinessProbe = { ...READY_PROBE, kvmModule: null, softwareEmulation: true };
    const r = hostReadiness(host(probe, { accelerator: 'tcg' }), TWO_GPUS);
    expect(r.virtualisation).toBe('emulated');
    expect(r.ready).toBe(false);
    expect(r.gpus[0]?.problems[0]?.reason).toMatch(/without KVM: a GPU cannot be passed through/);
  });

  it('an emulated test host with passthrough off may take rentals, and says so', () => {
    const probe: ReadinessProbe = {
      ...READY_PROBE,
      kvmModule: null,
      softwareEmulation: true,
      gpuPassthrough: false,
    };
    const r = hostReadiness(host(probe, { accelerator: 'tcg' }), TWO_GPUS);
    expect(r.ready).toBe(true);
    expect(readinessLine(r)).toBe('ready (VMs run emulated, slow)');
    expect(r.notes.map((n) => n.reason)).toEqual([
      expect.stringMatching(/^VMs run emulated \(slow\)/),
      expect.stringMatching(/not passed through/),
    ]);
  });

  it('a missing configured base image and a full disk are not ready; no image yet is a note', () => {
    const r = hostReadiness(
      host(
        { ...READY_PROBE, image: 'missing' },
        {
          disk: { path: '/srv', totalBytes: 1e11, freeBytes: 2 * 1024 ** 3 },
        },
      ),
      TWO_GPUS,
    );
    expect(r.problems.map((p) => p.reason)).toEqual([
      'The configured base image (AGENT_BASE_IMAGE) is missing.',
      'Only 2.0 GiB free on /srv; instance disks need at least 10 GiB.',
    ]);
    const fetchable = hostReadiness(host({ ...READY_PROBE, image: 'fetchable' }), TWO_GPUS);
    expect(fetchable.ready).toBe(true);
    expect(fetchable.notes[0]?.reason).toMatch(/No OS image is held yet/);
  });

  it('an older agent without a probe is judged on what it reports', () => {
    expect(hostReadiness(host(undefined), TWO_GPUS).ready).toBe(true);
    expect(hostReadiness(host(undefined, { accelerator: 'none' }), TWO_GPUS).ready).toBe(false);
  });

  it('the report lists the host, every other problem and each GPU', () => {
    const lines = readinessReport(hostReadiness(host(REAL_PROBE), REAL_H100));
    expect(lines[0]).toMatch(/^host: not ready: No GPU can be passed through/);
    expect(lines).toContainEqual(expect.stringMatching(/^GPU 0: not ready: No IOMMU/));
  });
});

describe('listingBlocker', () => {
  it('nothing blocks a listing without a verdict (the demo host) or on a ready GPU', () => {
    expect(listingBlocker(null, [0])).toBeNull();
    expect(listingBlocker(hostReadiness(host(READY_PROBE), TWO_GPUS), [1])).toBeNull();
  });
  it('a GPU the host no longer reports blocks its listing', () => {
    const r = hostReadiness(host(READY_PROBE), TWO_GPUS);
    expect(listingBlocker(r, [5])?.reason).toMatch(/None of this listing's GPUs \(5\)/);
  });
});

// ── per kind (docs/decisions/025) ─────────────────────────────────────────────────────────

/** What the container driver reports on a host where containers work (Debian's Podman 4.3). */
const CONTAINERS_WORK: ContainerProbe = {
  podman: '4.3.1',
  runtime: 'runc 1.1.5',
  error: null,
  trial: 'passed',
  cdi: { gpuDevices: ['0', 'GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'all'], error: null },
  toolkitVersion: '1.17.8',
  diskLimit: { enforced: true, reason: null },
};

/** The real H100 host as a new agent reports it: its GPU on nvidia, VMs and containers. */
const REAL_H100_ON_NVIDIA: GpuInventory = {
  gpus: [{ ...(REAL_H100.gpus[0] as GpuInfo), boundTo: 'nvidia' }],
  error: null,
};
function realHost(container: ContainerProbe | null, drivers: HostInventory['drivers']) {
  return host({ ...REAL_PROBE, container }, { drivers });
}

/** A host with both at once: GPU 0 on nvidia (containers), GPU 1 on vfio-pci (VMs). */
const MIXED: GpuInventory = {
  gpus: [
    {
      ...(REAL_H100.gpus[0] as GpuInfo),
      index: 0,
      pciBusId: '00000000:01:00.0',
      boundTo: 'nvidia',
    },
    VFIO_H100,
  ],
  error: null,
};
const MIXED_PROBE: ReadinessProbe = {
  ...REAL_PROBE,
  iommuGroups: 40,
  gpus: [
    { index: 0, iommuGroup: '12', driver: 'nvidia' },
    { index: 1, iommuGroup: '35', driver: 'vfio-pci' },
  ],
  container: { ...CONTAINERS_WORK, cdi: { gpuDevices: ['0'], error: null } },
};
const both = (probe: ReadinessProbe, over: Partial<HostInventory> = {}) =>
  host(probe, { drivers: ['vm', 'container'], ...over });

describe('hostReadiness per kind', () => {
  it('an agent that names no drivers offers VMs only, judged as before', () => {
    const r = hostReadiness(host(READY_PROBE), TWO_GPUS);
    expect(r.kinds?.vm).toEqual({ offered: true, ready: true, problems: [], readyGpus: [0, 1] });
    expect(r.kinds?.container).toMatchObject({ offered: false, ready: false, readyGpus: [] });
    expect(r.kinds?.container.problems[0]?.reason).toMatch(/does not offer containers/);
  });

  it('the real H100 host rents its GPU as a container, not as a VM', () => {
    const r = hostReadiness(realHost(CONTAINERS_WORK, ['vm', 'container']), REAL_H100_ON_NVIDIA);
    expect(r).toMatchObject({ ready: true, problems: [], readyGpus: [0] });
    expect(r.kinds?.container).toEqual({
      offered: true,
      ready: true,
      problems: [],
      readyGpus: [0],
    });
    expect(r.kinds?.vm.ready).toBe(false);
    expect(r.kinds?.vm.problems[0]?.reason).toMatch(
      /^No GPU can be passed through to a VM\. No IOMMU/,
    );
    // Ready for containers; its problems say why not for VMs.
    expect(r.gpus[0]).toMatchObject({ index: 0, ready: true });
    expect(r.gpus[0]?.problems[0]?.reason).toMatch(/^VMs: No IOMMU/);
    expect(listingBlocker(r, [0])).toBeNull();
    expect(listingBlocker(r, [0], 'container')).toBeNull();
    expect(listingBlocker(r, [0], 'vm')?.reason).toMatch(/^No GPU can be passed through to a VM/);
  });

  it('containers only: KVM and the IOMMU do not matter', () => {
    const probe: ReadinessProbe = { ...REAL_PROBE, kvmModule: null, container: CONTAINERS_WORK };
    const r = hostReadiness(
      host(probe, { accelerator: 'none', drivers: ['container'] }),
      REAL_H100_ON_NVIDIA,
    );
    expect(r).toMatchObject({ ready: true, readyGpus: [0] });
    expect(r.gpus[0]).toEqual({ index: 0, ready: true, problems: [] });
    expect(r.kinds?.vm.offered).toBe(false);
    expect(listingBlocker(r, [0], 'vm')?.reason).toMatch(/does not offer VMs/);
  });

  it('VMs on vfio-pci GPUs and containers on nvidia ones, at once', () => {
    const r = hostReadiness(both(MIXED_PROBE), MIXED);
    expect(r.ready).toBe(true);
    expect(r.kinds?.vm).toMatchObject({ ready: true, readyGpus: [1] });
    expect(r.kinds?.container).toMatchObject({ ready: true, readyGpus: [0] });
    expect(r.readyGpus).toEqual([0, 1]);
    expect(listingBlocker(r, [0], 'container')).toBeNull();
    expect(listingBlocker(r, [1], 'vm')).toBeNull();
    expect(listingBlocker(r, [1], 'container')).toEqual({
      reason:
        'Containers: GPU 1 (00000000:41:00.0) is bound to vfio-pci: a container runs on the host’s NVIDIA driver, so only a VM can have this GPU.',
      fix: 'To rent it as a container, give it back to the nvidia driver (driverctl unset-override 0000:41:00.0) and run nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml.',
    });
    expect(listingBlocker(r, [0], 'vm')?.reason).toBe(
      'VMs: GPU 0 (00000000:01:00.0) is bound to nvidia, not vfio-pci.',
    );
    const report = readinessReport(r);
    expect(report).toContain('vm: ready (GPUs 1)');
    expect(report).toContain('container: ready (GPUs 0)');
    expect(report).toContain('GPU 0: ready for containers');
    expect(report).toContain('GPU 1: ready for VMs');
  });

  it('a GPU on nvidia serves containers only when a CDI spec names it: by index, UUID or all', () => {
    const uuid = 'GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const withCdi = (gpuDevices: string[], error: string | null = null) =>
      hostReadiness(
        realHost({ ...CONTAINERS_WORK, cdi: { gpuDevices, error } }, ['container']),
        REAL_H100_ON_NVIDIA,
      );
    for (const names of [['0'], [uuid], ['all']]) expect(withCdi(names).readyGpus).toEqual([0]);
    const none = withCdi(['1', 'GPU-other'], null);
    expect(none.ready).toBe(false);
    expect(none.gpus[0]?.problems).toEqual([
      {
        reason: 'GPU 0 (00000000:00:06.0) is in no CDI spec: Podman cannot hand it to a container.',
        fix: 'Run nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml (again after adding, moving or rebinding GPUs).',
      },
    ]);
    expect(none.problems[0]?.reason).toMatch(/^No GPU can be handed to a container\. GPU 0/);
    const unreadable = withCdi([], 'no CDI spec in /etc/cdi or /var/run/cdi');
    expect(unreadable.gpus[0]?.problems[0]?.reason).toMatch(
      /in no CDI spec \(no CDI spec in \/etc\/cdi or \/var\/run\/cdi\)/,
    );
  });

  it('of two GPUs on nvidia, the one no CDI spec names is not sold for containers', () => {
    const gpus: GpuInventory = {
      gpus: [0, 1].map((index) => ({
        ...(REAL_H100.gpus[0] as GpuInfo),
        index,
        uuid: null,
        pciBusId: `00000000:0${index + 1}:00.0`,
        boundTo: 'nvidia' as const,
      })),
      error: null,
    };
    const r = hostReadiness(
      realHost({ ...CONTAINERS_WORK, cdi: { gpuDevices: ['0'], error: null } }, ['container']),
      gpus,
    );
    expect(r).toMatchObject({ ready: true, readyGpus: [0] });
    expect(listingBlocker(r, [1], 'container')?.reason).toMatch(/GPU 1 .* in no CDI spec/);
  });

  it('Podman missing, failing, without a runtime or failing its trial blocks containers; not run yet does not', () => {
    const verdict = (c: Partial<ContainerProbe>) =>
      hostReadiness(realHost({ ...CONTAINERS_WORK, ...c }, ['container']), REAL_H100_ON_NVIDIA);
    expect(verdict({ podman: null, error: 'podman: not found' }).problems[0]?.reason).toBe(
      'Podman does not answer: podman: not found',
    );
    expect(verdict({ podman: null }).problems[0]?.fix).toMatch(/apt-get install podman runc/);
    expect(verdict({ error: 'cannot set up namespace' }).problems[0]?.reason).toBe(
      'Podman cannot run containers: cannot set up namespace',
    );
    expect(verdict({ runtime: null }).problems[0]?.fix).toMatch(/runc/);
    const failed = verdict({
      trial: 'failed',
      error: 'setrlimit `RLIMIT_NPROC`: Operation not permitted',
    });
    expect(failed.problems[0]?.reason).toBe(
      'A trial container did not run: setrlimit `RLIMIT_NPROC`: Operation not permitted',
    );
    expect(verdict({ trial: 'not-run' }).ready).toBe(true);
  });

  it('an agent that offers containers but reports nothing of them is not ready for them', () => {
    const r = hostReadiness(realHost(null, ['container']), REAL_H100_ON_NVIDIA);
    expect(r.ready).toBe(false);
    expect(r.problems[0]?.reason).toMatch(/reports nothing about containers/);
  });

  it('a toolkit with a known container escape blocks containers, naming the CVEs and the fix', () => {
    const verdict = (toolkitVersion: string | null, gpus = REAL_H100_ON_NVIDIA) =>
      hostReadiness(realHost({ ...CONTAINERS_WORK, toolkitVersion }, ['container']), gpus);
    expect(verdict('1.16.1').problems[0]).toEqual({
      reason:
        'NVIDIA Container Toolkit 1.16.1 has a known container escape (CVE-2024-0132, fixed in 1.16.2; CVE-2025-23266, fixed in 1.17.8).',
      fix: 'Upgrade nvidia-container-toolkit to 1.17.8 or later, then run nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml.',
    });
    expect(verdict('1.17.7').problems[0]?.reason).toBe(
      'NVIDIA Container Toolkit 1.17.7 has a known container escape (CVE-2025-23266, fixed in 1.17.8).',
    );
    for (const fixed of ['1.17.8', 'v1.17.8', '1.18.0', '1.17.8-1', '2.0.0']) {
      expect(verdict(fixed).ready).toBe(true);
    }
    expect(verdict('1.17.8-rc.1').ready).toBe(false);
    expect(verdict('unknown').problems[0]?.reason).toMatch(/version that cannot be read/);
    const missing = verdict(null);
    expect(missing.problems[0]).toEqual({
      reason:
        'The NVIDIA Container Toolkit is not installed (no nvidia-ctk): its version cannot be checked for known container escapes.',
      fix: 'Install nvidia-container-toolkit ≥ 1.17.8 and run nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml.',
    });
    // No GPU on nvidia: none is sold for containers, so a missing toolkit is not the problem.
    const onVfio: GpuInventory = {
      gpus: [{ ...(REAL_H100.gpus[0] as GpuInfo), boundTo: 'vfio-pci' }],
      error: null,
    };
    expect(verdict(null, onVfio).problems.map((p) => p.reason)).toEqual([
      expect.stringMatching(/^No GPU can be handed to a container\. GPU 0 .* bound to vfio-pci/),
    ]);
  });

  it('toolkitEscapes: which CVEs a version has', () => {
    expect(MIN_TOOLKIT_VERSION).toBe('1.17.8');
    expect(toolkitEscapes('1.14.3')?.map((e) => e.cve)).toEqual([
      'CVE-2024-0132',
      'CVE-2025-23266',
    ]);
    expect(toolkitEscapes('1.16.2')?.map((e) => e.cve)).toEqual(['CVE-2025-23266']);
    expect(toolkitEscapes('NVIDIA Container Toolkit CLI version 1.17.8')).toEqual([]);
    expect(toolkitEscapes('none')).toBeNull();
  });

  it('nvidia-smi failing blocks containers, and VMs only when no GPU is on vfio-pci', () => {
    const failing: GpuInventory = {
      gpus: MIXED.gpus.filter((g) => g.boundTo === 'vfio-pci'),
      error:
        'nvidia-smi failed: NVIDIA-SMI has failed because it couldn’t communicate with the NVIDIA driver',
    };
    const r = hostReadiness(both(MIXED_PROBE), failing);
    expect(r.kinds?.vm).toMatchObject({ ready: true, readyGpus: [1] });
    expect(r.kinds?.container.ready).toBe(false);
    expect(r.kinds?.container.problems[0]?.reason).toMatch(/^The NVIDIA driver does not answer/);
    const vmOnly = hostReadiness(host(MIXED_PROBE), failing);
    expect(vmOnly).toMatchObject({ ready: true, problems: [], readyGpus: [1] });
  });

  it('passthrough off on a real host: its GPUs are not sold as VMs (a VM would have no GPU)', () => {
    const probe: ReadinessProbe = { ...READY_PROBE, gpuPassthrough: false };
    const r = hostReadiness(host(probe), TWO_GPUS);
    expect(r.ready).toBe(false);
    expect(r.readyGpus).toEqual([]);
    expect(r.gpus[0]?.problems[0]?.reason).toBe(
      'GPU 0 (00000000:01:00.0) is not passed through: GPU passthrough is off (AGENT_GPU_PASSTHROUGH=false), so a VM would get no GPU.',
    );
    expect(listingBlocker(r, [0])?.reason).toMatch(
      /^No GPU can be passed through to a VM\. GPU 0 .* not passed through/,
    );
    expect(r.notes.map((n) => n.reason)).not.toContainEqual(expect.stringMatching(/not passed/));
    // With containers beside, the same host rents its nvidia GPU as a container.
    const withContainers = hostReadiness(
      both({ ...probe, container: CONTAINERS_WORK }),
      REAL_H100_ON_NVIDIA,
    );
    expect(withContainers).toMatchObject({ ready: true, readyGpus: [0] });
    expect(listingBlocker(withContainers, [0], 'vm')?.reason).toMatch(/not passed through/);
  });

  it('a problem of the host itself is said once, without a kind; each kind’s own with its kind', () => {
    const r = hostReadiness(
      both(
        { ...REAL_PROBE, container: { ...CONTAINERS_WORK, podman: null } },
        { disk: { path: '/srv', totalBytes: 1e11, freeBytes: 2 * 1024 ** 3 } },
      ),
      REAL_H100_ON_NVIDIA,
    );
    expect(r.ready).toBe(false);
    expect(r.problems.map((p) => p.reason)).toEqual([
      'Only 2.0 GiB free on /srv; instance disks need at least 10 GiB.',
      expect.stringMatching(/^VMs: No GPU can be passed through to a VM\. No IOMMU/),
      'Containers: Podman does not answer.',
    ]);
    const report = readinessReport(r);
    expect(report[0]).toMatch(/^host: not ready: Only 2\.0 GiB free/);
    expect(report).toContainEqual(expect.stringMatching(/^vm: not ready: Only 2\.0 GiB/));
    expect(report).toContainEqual(expect.stringMatching(/^container: not ready: Podman does not/));
  });

  it('a container disk limit the host cannot enforce is a note, with the reason', () => {
    const r = hostReadiness(
      realHost(
        {
          ...CONTAINERS_WORK,
          diskLimit: { enforced: false, reason: 'overlay on ext4 has no project quota' },
        },
        ['container'],
      ),
      REAL_H100_ON_NVIDIA,
    );
    expect(r.ready).toBe(true);
    expect(r.notes.map((n) => n.reason)).toEqual([
      'A container’s disk size cannot be enforced on this host: overlay on ext4 has no project quota',
    ]);
  });

  it('a passthrough GPU found in sysfs is ready for VMs with an IOMMU', () => {
    const vfioOnly: GpuInventory = {
      gpus: MIXED.gpus.filter((g) => g.boundTo === 'vfio-pci'),
      error: 'nvidia-smi failed: nvidia-smi not found (no NVIDIA driver installed?)',
    };
    const probe: ReadinessProbe = {
      ...MIXED_PROBE,
      gpus: [{ index: 1, iommuGroup: '35', driver: 'vfio-pci' }],
      container: null,
    };
    const r = hostReadiness(host(probe), vfioOnly);
    expect(r).toMatchObject({ ready: true, readyGpus: [1] });
    const noIommu = hostReadiness(host({ ...probe, iommuGroups: 0 }), vfioOnly);
    expect(noIommu.gpus[0]?.problems[0]?.reason).toMatch(/^No IOMMU/);
  });
});

describe('listingBlocker for verdicts stored before containers', () => {
  it('judges them as the VM kind; a container listing on such a host is not offered', () => {
    const { kinds: _kinds, ...old } = hostReadiness(host(READY_PROBE), TWO_GPUS);
    const stored: HostReadiness = old;
    expect(listingBlocker(stored, [0])).toBeNull();
    expect(listingBlocker(stored, [0], 'vm')).toBeNull();
    expect(listingBlocker(stored, [0], 'container')?.reason).toMatch(/does not offer containers/);
    expect(listingBlocker(stored, [7])?.reason).toMatch(/None of this listing's GPUs \(7\)/);
  });
});
