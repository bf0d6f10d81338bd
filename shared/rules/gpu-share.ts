/**
 * What one GPU's share of a host gives a guest (issue 25, part 5: what is shown is what is
 * given). A host's instances are one per GPU; each gets at most its share of the machine: of
 * its cores, and of the memory it lets guests use — `guestBytes` when the provider set it
 * (AGENT_GUEST_MEMORY_MIB), else 80% of the total (the rest stays with the host). The same
 * rule is shown before renting (marketplace, VM create form, public API, CLI), refuses a
 * create asking for more, and sizes the guest the host boots (server/modules/instances/host-side/desired.ts).
 */

/** What a host reports of itself (its heartbeat's `host`) and how many GPUs it has. */
export interface HostMachine {
  cores: number;
  totalBytes: number;
  /** What guests may use together; absent: HOST_GUEST_MEMORY_SHARE of the total. */
  guestBytes?: number | undefined;
  gpuCount: number;
}

/** One GPU's share: whole vCPUs and MiB of memory. */
export interface GpuShare {
  vcpus: number;
  memoryMib: number;
}

/** What guests may use of a host's memory when its provider did not say. */
export const HOST_GUEST_MEMORY_SHARE = 0.8;
/** No guest gets less memory than this, however small the host's share. */
export const MIN_GUEST_MEMORY_MIB = 512;

const MIB = 1024 * 1024;

/**
 * A GPU's share of a host: its cores and guest memory divided by its GPUs (a host without GPUs
 * is one share), at least one vCPU and MIN_GUEST_MEMORY_MIB.
 */
export function gpuShare(host: HostMachine): GpuShare {
  const shares = Math.max(1, Math.floor(host.gpuCount));
  const pool = host.guestBytes ?? host.totalBytes * HOST_GUEST_MEMORY_SHARE;
  return {
    vcpus: Math.max(1, Math.floor(host.cores / shares)),
    memoryMib: Math.max(MIN_GUEST_MEMORY_MIB, Math.floor(pool / MIB / shares)),
  };
}

/**
 * The demo host (server/modules/hosts/demo-host.ts) runs no guest: it gives whatever the VM
 * dashboard's bounds allow (16 vCPUs, 128 GB), so any shape within them fits.
 */
export const DEMO_GPU_SHARE: GpuShare = { vcpus: 16, memoryMib: 128 * 1024 };

/** A guest's shape: vCPUs and MiB of memory. */
export interface GuestShape {
  cpus: number;
  memoryMib: number;
}

/** What a guest gets: what it asks, never more than the share (never less than the minimum). */
export function fitShape(asked: GuestShape, share: GpuShare): GuestShape {
  return {
    cpus: Math.max(1, Math.min(asked.cpus, share.vcpus)),
    memoryMib: Math.max(MIN_GUEST_MEMORY_MIB, Math.min(asked.memoryMib, share.memoryMib)),
  };
}

/** MiB as GB (1024 MiB) to one decimal, rounded down: never more than is given. */
export function mibAsGb(mib: number): number {
  return Math.floor((mib / 1024) * 10 + 1e-9) / 10;
}

/** A share as people read it: "8 vCPUs · 25.6 GB RAM". */
export function shareLabel(share: { vcpus: number; memoryGb: number }): string {
  return `${share.vcpus} vCPU${share.vcpus === 1 ? '' : 's'} · ${share.memoryGb} GB RAM`;
}

/** A share as views show it: whole vCPUs, GB to one decimal rounded down (mibAsGb). */
export interface GpuShareShown {
  vcpus: number;
  memoryGb: number;
}

export const shownShare = (share: GpuShare): GpuShareShown => ({
  vcpus: share.vcpus,
  memoryGb: mibAsGb(share.memoryMib),
});

/**
 * Where an asked shape (whole vCPUs, whole GB) exceeds the share as shown: per field
 * (`cpu_cores`, `ram_gb`), the message naming the maximum. Empty when it fits. For whole GB,
 * more than the shown share (rounded down) is exactly more than the share itself.
 */
export function shapeBeyondShare(
  asked: { cpus?: number | undefined; memoryGb?: number | undefined },
  share: GpuShareShown,
): Partial<Record<'cpu_cores' | 'ram_gb', string>> {
  const found: Partial<Record<'cpu_cores' | 'ram_gb', string>> = {};
  if (asked.cpus !== undefined && asked.cpus > share.vcpus) {
    found.cpu_cores = `This GPU's share of its host is at most ${share.vcpus} vCPU${share.vcpus === 1 ? '' : 's'}`;
  }
  if (asked.memoryGb !== undefined && asked.memoryGb > share.memoryGb) {
    found.ram_gb = `This GPU's share of its host is at most ${share.memoryGb} GB of RAM`;
  }
  return found;
}

/** The memory a guest has, in GB as views show it: fitted at creation (MiB), else as asked. */
export function guestMemoryGb(instance: { memoryGb: number; memoryMib: number | null }): number {
  return instance.memoryMib === null ? instance.memoryGb : mibAsGb(instance.memoryMib);
}
