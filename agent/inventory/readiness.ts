import { access, open, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  ContainerProbe,
  GpuInventory,
  ReadinessProbe,
} from '../../shared/contracts/agent-protocol';
import { pciAddressForVfio } from './nvidia-smi';

/**
 * The facts host readiness is judged on (docs/decisions/021; the rules are
 * shared/rules/host-readiness.ts): which hardware KVM module is loaded, whether /dev/kvm opens
 * read-write, the IOMMU, each GPU's IOMMU group and driver, and the OS image. Every path is
 * under `root` (`/` on a host), so tests read a fixture tree instead. `gpus` is the host's
 * whole inventory (agent/inventory/vfio-gpus.ts `readHostGpus`): the GPUs nvidia-smi lists and
 * those bound to vfio-pci, each found by its PCI address. The container driver's facts
 * (agent/container/probe.ts) are its own probe's; they are passed in, and null without one.
 */
export interface ProbeOptions {
  root?: string;
  softwareEmulation: boolean;
  gpuPassthrough: boolean;
  /** AGENT_BASE_IMAGE, when set. */
  baseImage: string | null;
  /** A direct-boot test kernel is configured (AGENT_GUEST_KERNEL): no image is needed. */
  testKernel: boolean;
  /** The image cache folder (AGENT_STATE_DIR/images). */
  imagesDir: string;
}

export async function probeReadiness(
  o: ProbeOptions,
  gpus: GpuInventory,
  container: ContainerProbe | null = null,
): Promise<ReadinessProbe> {
  const at = (p: string) => path.join(o.root ?? '/', p);
  const kvmModule = (await exists(at('sys/module/kvm_intel')))
    ? 'kvm_intel'
    : (await exists(at('sys/module/kvm_amd')))
      ? 'kvm_amd'
      : null;
  const devKvm = !(await exists(at('dev/kvm')))
    ? 'absent'
    : (await readWrite(at('dev/kvm')))
      ? 'usable'
      : 'denied';
  const iommuGroups = (await readdir(at('sys/kernel/iommu_groups')).catch(() => [])).length;
  const perGpu = await Promise.all(
    gpus.gpus.map(async (g) => {
      const address = g.pciBusId ? pciAddressForVfio(g.pciBusId) : null;
      const device = address ? at(`sys/bus/pci/devices/${address}`) : null;
      return {
        index: g.index,
        iommuGroup: device ? await linkName(`${device}/iommu_group`) : null,
        driver: device ? await linkName(`${device}/driver`) : null,
      };
    }),
  );
  return {
    kvmModule,
    devKvm,
    softwareEmulation: o.softwareEmulation,
    gpuPassthrough: o.gpuPassthrough,
    iommuGroups,
    gpus: perGpu,
    image: await imageState(o),
    container,
  };
}

async function imageState(o: ProbeOptions): Promise<ReadinessProbe['image']> {
  if (o.testKernel) return 'held';
  if (o.baseImage !== null) return (await isFile(o.baseImage)) ? 'held' : 'missing';
  const files = await readdir(o.imagesDir).catch(() => [] as string[]);
  // A verified image has its sidecar (agent/images/cache.ts).
  return files.some((f) => /\.[0-9a-f]{64}\.json$/.test(f)) ? 'held' : 'fetchable';
}

/** The last part of a symlink's target (`../../../bus/pci/drivers/vfio-pci` → `vfio-pci`). */
async function linkName(link: string): Promise<string | null> {
  try {
    return path.basename(await readlink(link)).slice(0, 64) || null;
  } catch {
    return null;
  }
}

async function exists(p: string) {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

/** Opened read-write, as QEMU opens it (a mode or group that forbids it says so here). */
async function readWrite(p: string) {
  try {
    await (await open(p, 'r+')).close();
    return true;
  } catch {
    return false;
  }
}

async function isFile(p: string) {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
