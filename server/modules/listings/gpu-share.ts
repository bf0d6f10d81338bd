import { sql } from 'drizzle-orm';
import type { GpuShareView } from '../../../shared/contracts/listings';
import {
  DEMO_GPU_SHARE,
  type GpuShare,
  gpuShare,
  shownShare,
} from '../../../shared/rules/gpu-share';
import { gpuListings } from '../../db/schema';

/**
 * What a listing's host reported of its machine (its last heartbeat's inventory), as
 * shared/rules/gpu-share.ts reads it; null without a host or before its first heartbeat.
 */
export interface HostMachineRow {
  cores: number | null;
  totalBytes: number | null;
  guestBytes: number | null;
  gpuCount: number;
  /** Its disk's size (where instance disks live); null or absent when not reported. */
  diskBytes?: number | null;
  /** The NVIDIA driver and CUDA versions it reports (nvidia-smi); null or absent when not. */
  driverVersion?: string | null;
  cudaVersion?: string | null;
}

/** A host's machine from its inventory column (`inventory`, the hosts row's), as one JSON object. */
export const hostMachineJson = (
  inventory: string,
) => `(case when ${inventory} is null then null else jsonb_build_object(
  'cores', ${inventory}->'host'->'cpu'->'cores',
  'totalBytes', ${inventory}->'host'->'memory'->'totalBytes',
  'guestBytes', ${inventory}->'host'->'memory'->'guestBytes',
  'gpuCount', jsonb_array_length(coalesce(${inventory}->'gpus'->'gpus', '[]'::jsonb)),
  'diskBytes', ${inventory}->'host'->'disk'->'totalBytes',
  'driverVersion', ${inventory}->'gpus'->'driverVersion',
  'cudaVersion', ${inventory}->'gpus'->'cudaVersion') end)`;

/**
 * The listing's host's machine (HostMachineRow); for a demo-host listing the machine it stands
 * for (`demo_machine`, the same shape); null without either.
 */
export const hostMachineSql = sql<HostMachineRow | null>`(case when ${gpuListings.hostId} is null
  then ${gpuListings.demoMachine} else (select ${sql.raw(hostMachineJson('h.inventory'))}
  from hosts h where h.id = ${gpuListings.hostId}) end)`;

/**
 * One GPU's share of the machine a listing runs on: the demo host's for demo listings, its
 * host's by the shared rule, null where nothing is known (no host, no heartbeat yet).
 */
export function listingShare(
  listing: { hostId: string | null; isDemoHost: boolean },
  machine: HostMachineRow | null | undefined,
): GpuShare | null {
  if (listing.hostId === null && !listing.isDemoHost) return null;
  if (listing.hostId === null && !machine) return DEMO_GPU_SHARE;
  if (!machine || machine.cores === null || machine.totalBytes === null) return null;
  return gpuShare({
    cores: machine.cores,
    totalBytes: machine.totalBytes,
    ...(machine.guestBytes === null ? {} : { guestBytes: machine.guestBytes }),
    gpuCount: machine.gpuCount,
  });
}

/** A share as listings show it: whole vCPUs and GB to one decimal (rounded down). */
export function shareView(share: GpuShare | null): GpuShareView | null {
  return share ? shownShare(share) : null;
}

/** GiB as the views' GB (1024³ bytes), rounded down. */
const GIB = 1024 ** 3;

/**
 * Disk one instance of a listing gets: its GPUs' share of its machine's disk (docs/decisions/
 * 024), whole GB rounded down; null until the machine has reported one.
 */
export function listingDiskGb(
  listing: { gpuCount: number },
  machine: HostMachineRow | null | undefined,
): number | null {
  if (!machine || machine.diskBytes === null || machine.diskBytes === undefined) return null;
  const shares = Math.max(1, Math.floor(machine.gpuCount));
  return Math.floor((machine.diskBytes / shares / GIB) * Math.min(listing.gpuCount, shares));
}
