import { describe, expect, it } from 'vitest';
import type { GpuInventory, HostInventory, ReadinessProbe } from '../contracts/agent-protocol';
import { hostReadiness, listingBlocker, readinessLine, readinessReport } from './host-readiness';

/**
 * The real H100 host measured in ../shared/reference/real-gpu/ (README.md): the agent's own
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
const REAL_PROBE: ReadinessProbe = {
  kvmModule: 'kvm_intel',
  devKvm: 'usable',
  softwareEmulation: false,
  gpuPassthrough: true,
  iommuGroups: 0,
  gpus: [{ index: 0, iommuGroup: null, driver: 'nvidia' }],
  image: 'held',
};

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
    expect(none.problems.map((p) => p.reason)).toEqual(['nvidia-smi lists no GPU.']);
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
