import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VFIO_H100 } from '../../shared/fixtures/real-gpu/h100';
import { marketplaceModelOf } from '../../shared/gpu-names';
import { parseNvidiaSmiCsv } from './nvidia-smi';
import { probeReadiness } from './readiness';
import {
  mergeGpuInventory,
  nvidiaSmiBusId,
  readHostGpus,
  scanNvidiaPciFunctions,
} from './vfio-gpus';

/**
 * A fake sysfs laid out as the kernel lays it out: `bus/pci/devices/<address>` is a link into
 * `devices/pci…/`, where `vendor`, `device` and `class` hold hex and `driver` and `iommu_group`
 * are links. The ids are real: the H100 SXM of the measured host (nvidia-smi -q: Device Id
 * 0x233010DE, class 0x0302; shared/fixtures/real-gpu/), on `nvidia` at 0000:00:06.0.
 */
let sys: string;
beforeEach(async () => {
  sys = await mkdtemp(path.join(os.tmpdir(), 'vfio-sysfs-'));
});
afterEach(async () => {
  await rm(sys, { recursive: true, force: true });
});

interface FakeFunction {
  address: string;
  vendor?: string;
  device: string;
  pciClass: string;
  driver?: string;
  iommuGroup?: string;
}

async function pci(...functions: FakeFunction[]) {
  await mkdir(path.join(sys, 'bus/pci/devices'), { recursive: true });
  for (const f of functions) {
    const bus = f.address.slice(0, 7);
    const real = path.join(sys, `devices/pci${bus}/${f.address}`);
    await mkdir(real, { recursive: true });
    await writeFile(path.join(real, 'vendor'), `${f.vendor ?? '0x10de'}\n`);
    await writeFile(path.join(real, 'device'), `${f.device}\n`);
    await writeFile(path.join(real, 'class'), `${f.pciClass}\n`);
    if (f.driver) {
      await mkdir(path.join(sys, 'bus/pci/drivers', f.driver), { recursive: true });
      await symlink(`../../../bus/pci/drivers/${f.driver}`, path.join(real, 'driver'));
    }
    if (f.iommuGroup) {
      await mkdir(path.join(sys, 'kernel/iommu_groups', f.iommuGroup), { recursive: true });
      await symlink(`../../../kernel/iommu_groups/${f.iommuGroup}`, path.join(real, 'iommu_group'));
    }
    await symlink(
      `../../../devices/pci${bus}/${f.address}`,
      path.join(sys, 'bus/pci/devices', f.address),
    );
  }
}

/** A passthrough host: an H100 on nvidia, two on vfio-pci (with their audio functions), a NIC. */
async function mixedHost() {
  await pci(
    { address: '0000:00:06.0', device: '0x2330', pciClass: '0x030200', driver: 'nvidia' },
    {
      address: '0000:c1:00.0',
      device: '0x2684',
      pciClass: '0x030000',
      driver: 'vfio-pci',
      iommuGroup: '41',
    },
    {
      address: '0000:c1:00.1',
      device: '0x22ba',
      pciClass: '0x040300',
      driver: 'vfio-pci',
      iommuGroup: '41',
    },
    {
      address: '0000:41:00.0',
      device: '0x2330',
      pciClass: '0x030200',
      driver: 'vfio-pci',
      iommuGroup: '35',
    },
    {
      address: '0000:03:00.0',
      vendor: '0x8086',
      device: '0x1592',
      pciClass: '0x020000',
      driver: 'ice',
      iommuGroup: '9',
    },
  );
}

const H100_ON_NVIDIA_CSV =
  '0, NVIDIA H100 80GB HBM3, GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d, 81559, 0, 0, 44, 00000000:00:06.0\n';

describe('scanNvidiaPciFunctions', () => {
  it('finds NVIDIA display and 3D controllers with their driver and IOMMU group, in address order', async () => {
    await mixedHost();
    expect(await scanNvidiaPciFunctions(sys)).toEqual([
      { address: '0000:00:06.0', deviceId: '2330', driver: 'nvidia', iommuGroup: null },
      { address: '0000:41:00.0', deviceId: '2330', driver: 'vfio-pci', iommuGroup: '35' },
      { address: '0000:c1:00.0', deviceId: '2684', driver: 'vfio-pci', iommuGroup: '41' },
    ]);
  });

  it('no sysfs, no PCI devices folder, or unreadable entries: nothing, never a throw', async () => {
    expect(await scanNvidiaPciFunctions(path.join(sys, 'nope'))).toEqual([]);
    await pci({ address: '0000:41:00.0', device: 'garbage', pciClass: '0x030200' });
    await mkdir(path.join(sys, 'bus/pci/devices/not-an-address'));
    expect(await scanNvidiaPciFunctions(sys)).toEqual([]);
  });

  it('a GPU bound to no driver is found, with driver null', async () => {
    await pci({ address: '0000:41:00.0', device: '0x2330', pciClass: '0x030200' });
    const [f] = await scanNvidiaPciFunctions(sys);
    expect(f).toMatchObject({ address: '0000:41:00.0', driver: null, iommuGroup: null });
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable attribute skips that function', async () => {
    await pci({ address: '0000:41:00.0', device: '0x2330', pciClass: '0x030200' });
    await chmod(path.join(sys, 'devices/pci0000:41/0000:41:00.0/vendor'), 0);
    expect(await scanNvidiaPciFunctions(sys)).toEqual([]);
  });
});

describe('mergeGpuInventory', () => {
  it('lists vfio-pci GPUs after nvidia-smi’s, named and sized from their PCI id', async () => {
    await mixedHost();
    const merged = mergeGpuInventory(
      parseNvidiaSmiCsv(H100_ON_NVIDIA_CSV),
      await scanNvidiaPciFunctions(sys),
    );
    expect(merged.error).toBeNull();
    expect(merged.gpus).toEqual([
      expect.objectContaining({ index: 0, boundTo: 'nvidia', pciBusId: '00000000:00:06.0' }),
      VFIO_H100,
      {
        index: 2,
        name: 'NVIDIA GeForce RTX 4090',
        uuid: null,
        memoryTotalMib: 24576,
        memoryUsedMib: null,
        utilizationPercent: null,
        temperatureC: null,
        pciBusId: '00000000:C1:00.0',
        boundTo: 'vfio-pci',
      },
    ]);
    expect(merged.gpus.map((g) => marketplaceModelOf(g.name))).toEqual([
      'H100',
      'H100',
      'RTX 4090',
    ]);
  });

  it('nvidia-smi failing: the vfio-pci GPUs are listed, after the indexes of the GPUs on nvidia, and the error stays', async () => {
    await mixedHost();
    const merged = mergeGpuInventory(
      {
        gpus: [],
        error: 'nvidia-smi failed: NVIDIA-SMI has failed because it couldn’t communicate',
      },
      await scanNvidiaPciFunctions(sys),
    );
    expect(merged.error).toMatch(/^nvidia-smi failed/);
    expect(merged.gpus.map((g) => [g.index, g.pciBusId, g.boundTo])).toEqual([
      [1, '00000000:41:00.0', 'vfio-pci'],
      [2, '00000000:C1:00.0', 'vfio-pci'],
    ]);
  });

  it('a pure passthrough host without nvidia-smi: its GPUs from index 0', async () => {
    await pci({
      address: '0000:41:00.0',
      device: '0x2b00',
      pciClass: '0x030200',
      driver: 'vfio-pci',
      iommuGroup: '35',
    });
    const merged = mergeGpuInventory(
      { gpus: [], error: 'nvidia-smi failed: nvidia-smi not found (no NVIDIA driver installed?)' },
      await scanNvidiaPciFunctions(sys),
    );
    expect(merged.gpus).toEqual([
      expect.objectContaining({
        index: 0,
        name: 'NVIDIA GPU 10de:2b00',
        memoryTotalMib: null,
        boundTo: 'vfio-pci',
      }),
    ]);
    expect(marketplaceModelOf(merged.gpus[0]?.name ?? '')).toBeNull();
  });

  it('a GPU nvidia-smi lists is never listed twice, whatever sysfs says of it', () => {
    const merged = mergeGpuInventory(parseNvidiaSmiCsv(H100_ON_NVIDIA_CSV), [
      { address: '0000:00:06.0', deviceId: '2330', driver: 'vfio-pci', iommuGroup: '3' },
    ]);
    expect(merged.gpus).toHaveLength(1);
  });

  it('writes PCI addresses as nvidia-smi does', () => {
    expect(nvidiaSmiBusId('0000:c1:00.0')).toBe('00000000:C1:00.0');
    expect(nvidiaSmiBusId('10000:01:00.0')).toBe('00010000:01:00.0');
  });
});

describe('readHostGpus', () => {
  it('runs nvidia-smi and reads sysfs; the readiness probe sees every GPU’s group and driver', async () => {
    await mixedHost();
    const gpus = await readHostGpus({
      nvidiaSmi: path.join(sys, 'no-nvidia-smi'),
      sysfsRoot: sys,
    });
    expect(gpus.error).toMatch(/not found/);
    expect(gpus.gpus.map((g) => g.index)).toEqual([1, 2]);
    // The probe reads `root`/sys: put the fake tree where it looks.
    const root = await mkdtemp(path.join(os.tmpdir(), 'vfio-root-'));
    try {
      await symlink(sys, path.join(root, 'sys'));
      const probe = await probeReadiness(
        {
          root,
          softwareEmulation: false,
          gpuPassthrough: true,
          baseImage: null,
          testKernel: true,
          imagesDir: path.join(root, 'images'),
        },
        gpus,
      );
      expect(probe.iommuGroups).toBe(3);
      expect(probe.gpus).toEqual([
        { index: 1, iommuGroup: '35', driver: 'vfio-pci' },
        { index: 2, iommuGroup: '41', driver: 'vfio-pci' },
      ]);
      expect(probe.container ?? null).toBeNull();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
