import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { GpuInfo, GpuInventory } from '../../shared/contracts/agent-protocol';
import { gpuByPciDeviceId, NVIDIA_VENDOR_ID, unknownGpuName } from '../../shared/gpu-pci-ids';
import { pciAddressForVfio, readGpuInventory } from './nvidia-smi';

/**
 * GPUs where they are bound (issue 38 part 6, docs/decisions/021 amended by 025). nvidia-smi
 * lists only the GPUs on the `nvidia` driver; a GPU bound to `vfio-pci` for passthrough is
 * invisible to it, so the agent finds those in sysfs: each PCI function of vendor 0x10de and
 * class 0x03xxxx (display or 3D controller; a GPU's audio function is class 0x0403) whose
 * `driver` link points at vfio-pci. Its model comes from its PCI device id
 * (shared/gpu-pci-ids.ts), its IOMMU group from its `iommu_group` link.
 */

/** One NVIDIA display function in sysfs, whatever it is bound to. */
export interface NvidiaPciFunction {
  /** sysfs's and vfio-pci's form: `0000:41:00.0`. */
  address: string;
  /** The PCI device id, four lower-case hex digits: `2330`. */
  deviceId: string;
  /** The bound driver (`vfio-pci`, `nvidia`, `nouveau`), or null when none is. */
  driver: string | null;
  iommuGroup: string | null;
}

const PCI_ADDRESS = /^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i;

/**
 * Every NVIDIA display or 3D controller under `<sysfsRoot>/bus/pci/devices`, in PCI address
 * order. An unreadable tree or entry is skipped, never thrown: no sysfs, no GPUs from it.
 */
export async function scanNvidiaPciFunctions(sysfsRoot = '/sys'): Promise<NvidiaPciFunction[]> {
  const dir = path.join(sysfsRoot, 'bus/pci/devices');
  const names = await readdir(dir).catch(() => [] as string[]);
  const found = await Promise.all(
    names
      .filter((name) => PCI_ADDRESS.test(name))
      .map(async (name): Promise<NvidiaPciFunction | null> => {
        const device = path.join(dir, name);
        const [vendor, pciClass, deviceId] = await Promise.all(
          ['vendor', 'class', 'device'].map((f) => readHex(path.join(device, f))),
        );
        if (vendor !== NVIDIA_VENDOR_ID || !pciClass?.startsWith('03') || !deviceId) return null;
        return {
          address: name.toLowerCase(),
          deviceId,
          driver: await linkName(path.join(device, 'driver')),
          iommuGroup: await linkName(path.join(device, 'iommu_group')),
        };
      }),
  );
  return found
    .filter((f): f is NvidiaPciFunction => f !== null)
    .sort((a, b) => a.address.localeCompare(b.address));
}

/** nvidia-smi's form of a PCI address: `0000:41:00.0` → `00000000:41:00.0`. */
export function nvidiaSmiBusId(address: string): string {
  const [domain = '0000', ...rest] = address.split(':');
  return [domain.padStart(8, '0'), ...rest].join(':').toUpperCase();
}

/** The most GPUs one heartbeat may list (shared/contracts/agent-protocol.ts `gpuInventory`). */
const MAX_GPUS = 64;
const MAX_INDEX = 255;

/**
 * nvidia-smi's inventory (its GPUs bound to `nvidia`) with the GPUs sysfs shows bound to
 * vfio-pci after them: indexes from nvidia-smi's highest + 1, in PCI address order. While
 * nvidia-smi fails, the functions sysfs shows on `nvidia` still hold their indexes (0 … n-1),
 * so a passthrough GPU keeps its index, and its listings their GPU, when the driver breaks.
 * nvidia-smi's error stays: it says why the `nvidia` GPUs are missing.
 */
export function mergeGpuInventory(
  nvidiaSmi: GpuInventory,
  pci: readonly NvidiaPciFunction[],
): GpuInventory {
  const listed = nvidiaSmi.gpus.map((g) => ({ ...g, boundTo: g.boundTo ?? ('nvidia' as const) }));
  const seen = new Set(
    listed.map((g) => (g.pciBusId ? pciAddressForVfio(g.pciBusId) : null)).filter(Boolean),
  );
  const onNvidia = pci.filter((f) => f.driver === 'nvidia').length;
  let index = Math.max(onNvidia, ...listed.map((g) => g.index + 1));
  const vfio: GpuInfo[] = [];
  for (const f of pci) {
    if (f.driver !== 'vfio-pci' || seen.has(f.address)) continue;
    if (index > MAX_INDEX || listed.length + vfio.length >= MAX_GPUS) break;
    const known = gpuByPciDeviceId(f.deviceId);
    vfio.push({
      index: index++,
      name: known?.name ?? unknownGpuName(f.deviceId),
      uuid: null,
      memoryTotalMib: known?.memoryMib ?? null,
      memoryUsedMib: null,
      utilizationPercent: null,
      temperatureC: null,
      pciBusId: nvidiaSmiBusId(f.address),
      boundTo: 'vfio-pci',
    });
  }
  return { ...nvidiaSmi, gpus: [...listed, ...vfio] };
}

export interface HostGpuSources {
  /** The nvidia-smi binary (AGENT_NVIDIA_SMI). */
  nvidiaSmi: string;
  /** Where sysfs is mounted; `/sys` on a host, a fixture tree in tests. */
  sysfsRoot?: string;
  /** nvidia-smi's time limit (default 15 s). */
  timeoutMs?: number;
}

/**
 * The host's GPUs as the heartbeat reports them: nvidia-smi's (boundTo `nvidia`) and those
 * bound to vfio-pci (boundTo `vfio-pci`). Never throws.
 */
export async function readHostGpus(o: HostGpuSources): Promise<GpuInventory> {
  const [smi, pci] = await Promise.all([
    readGpuInventory(o.nvidiaSmi, o.timeoutMs),
    scanNvidiaPciFunctions(o.sysfsRoot),
  ]);
  return mergeGpuInventory(smi, pci);
}

/** A sysfs hex attribute (`0x10de\n`) without its `0x`, lower case; null when unreadable. */
async function readHex(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, 'utf8')).trim().toLowerCase();
    return /^0x[0-9a-f]+$/.test(text) ? text.slice(2) : null;
  } catch {
    return null;
  }
}

/** The last part of a symlink's target (`../../../bus/pci/drivers/vfio-pci` → `vfio-pci`). */
async function linkName(link: string): Promise<string | null> {
  try {
    return path.basename(await readlink(link)).slice(0, 64) || null;
  } catch {
    return null;
  }
}
