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
}

/** A host's machine from its inventory column (`inventory`, the hosts row's), as one JSON object. */
export const hostMachineJson = (
  inventory: string,
) => `(case when ${inventory} is null then null else jsonb_build_object(
  'cores', ${inventory}->'host'->'cpu'->'cores',
  'totalBytes', ${inventory}->'host'->'memory'->'totalBytes',
  'guestBytes', ${inventory}->'host'->'memory'->'guestBytes',
  'gpuCount', jsonb_array_length(coalesce(${inventory}->'gpus'->'gpus', '[]'::jsonb))) end)`;

/** The listing's host's machine (HostMachineRow), null without one. */
export const hostMachineSql = sql<HostMachineRow | null>`(select ${sql.raw(hostMachineJson('h.inventory'))}
  from hosts h where h.id = ${gpuListings.hostId})`;

/**
 * One GPU's share of the machine a listing runs on: the demo host's for demo listings, its
 * host's by the shared rule, null where nothing is known (no host, no heartbeat yet).
 */
export function listingShare(
  listing: { hostId: string | null; isDemoHost: boolean },
  machine: HostMachineRow | null | undefined,
): GpuShare | null {
  if (listing.hostId === null) return listing.isDemoHost ? DEMO_GPU_SHARE : null;
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
