import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContainerProbe } from '../../shared/contracts/agent-protocol';
import { REAL_H100_PROBE } from '../../shared/fixtures/real-gpu/h100';
import { hostReadiness } from '../../shared/rules/host-readiness';
import { parseNvidiaSmiCsv } from './nvidia-smi';
import { type ProbeOptions, probeReadiness } from './readiness';

/** The agent's own query, measured on a real H100 host (shared/fixtures/real-gpu/README.md). */
const REAL_H100_CSV =
  '0, NVIDIA H100 80GB HBM3, GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d, 81559, 0, 0, 44, 00000000:00:06.0\n';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'readiness-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const options = (over: Partial<ProbeOptions> = {}): ProbeOptions => ({
  root,
  softwareEmulation: false,
  gpuPassthrough: true,
  baseImage: null,
  testKernel: false,
  imagesDir: path.join(root, 'state/images'),
  ...over,
});

/** A sysfs-like tree: `files` are made empty, `links` point at their targets. */
async function tree(files: string[], links: Record<string, string> = {}) {
  for (const f of files) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), '');
  }
  for (const [link, target] of Object.entries(links)) {
    await mkdir(path.dirname(path.join(root, link)), { recursive: true });
    await symlink(target, path.join(root, link));
  }
}

describe('probeReadiness', () => {
  it('the real H100 host: kvm_intel and /dev/kvm, no IOMMU, the GPU on nvidia', async () => {
    await tree(['sys/module/kvm_intel/refcnt', 'dev/kvm'], {
      'sys/bus/pci/devices/0000:00:06.0/driver': '../../../bus/pci/drivers/nvidia',
    });
    const gpus = parseNvidiaSmiCsv(REAL_H100_CSV);
    const probe = await probeReadiness(options(), gpus);
    expect(probe).toEqual({ ...REAL_H100_PROBE, image: 'fetchable', container: null });
    const verdict = hostReadiness(
      {
        hostname: 'h100',
        cpu: { model: 'x', cores: 16 },
        memory: { totalBytes: 1e11, availableBytes: 1e11 },
        disk: { path: '/', totalBytes: 1e12, freeBytes: 1e12 },
        accelerator: 'kvm',
        readiness: probe,
      },
      gpus,
    );
    expect(verdict.ready).toBe(false);
    expect(verdict.gpus[0]?.problems[0]?.reason).toMatch(/^No IOMMU/);
  });

  it('reads each GPU’s IOMMU group and vfio-pci binding', async () => {
    await tree(['sys/module/kvm_amd/refcnt', 'dev/kvm', 'sys/kernel/iommu_groups/7/type'], {
      'sys/bus/pci/devices/0000:00:06.0/iommu_group': '../../../../kernel/iommu_groups/7',
      'sys/bus/pci/devices/0000:00:06.0/driver': '../../../bus/pci/drivers/vfio-pci',
    });
    const probe = await probeReadiness(options(), parseNvidiaSmiCsv(REAL_H100_CSV));
    expect(probe).toMatchObject({
      kvmModule: 'kvm_amd',
      iommuGroups: 1,
      gpus: [{ index: 0, iommuGroup: '7', driver: 'vfio-pci' }],
    });
  });

  it('no hardware module, no /dev/kvm; a configured image that is missing', async () => {
    await tree(['sys/module/kvm_pvm/refcnt']);
    const probe = await probeReadiness(options({ baseImage: path.join(root, 'nope.qcow2') }), {
      gpus: [],
      error: null,
    });
    expect(probe).toMatchObject({ kvmModule: null, devKvm: 'absent', image: 'missing' });
  });

  it('carries the container driver’s facts when it has them, unchanged', async () => {
    const container: ContainerProbe = {
      podman: '4.3.1',
      runtime: 'runc 1.1.5',
      error: null,
      trial: 'not-run',
      cdi: { gpuDevices: ['0', 'all'], error: null },
      toolkitVersion: '1.17.8',
      diskLimit: { enforced: false, reason: 'overlay on ext4 has no project quota' },
    };
    const gpus = parseNvidiaSmiCsv(REAL_H100_CSV);
    expect((await probeReadiness(options(), gpus, container)).container).toEqual(container);
    expect((await probeReadiness(options(), gpus)).container).toBeNull();
  });

  it('a verified image in the cache is held', async () => {
    await tree([`state/images/ubuntu-22.04.${'a'.repeat(64)}.json`]);
    const probe = await probeReadiness(options(), { gpus: [], error: null });
    expect(probe.image).toBe('held');
  });
});
