import type { HostReadiness } from '../../../../shared/contracts/hosts';
import type { VmListingChoice } from '../../../../shared/contracts/kvm';
import type { ListingHostStatus } from '../../../../shared/contracts/listings';
import { mibAsGb } from '../../../../shared/rules/gpu-share';
import { microsToDollars } from '../../../../shared/rules/money';
import { listingKinds } from '../../hosts/kind-readiness';
import { type HostMachineRow, listingShare } from '../../listings/gpu-share';
import { requestedDeadlines } from '../reads/deadlines-presenter';
import { requestedIdleStop } from '../reads/idle-presenter';

/** The VM dashboard's request words, read into the instance core's: deadlines, idle stop, a listing. */

/** How the VM dashboard names the deadlines in its 400s. */
export const VM_DEADLINE_FIELDS = { stopAt: 'stop_at', terminateAt: 'terminate_at' } as const;

/** The deadlines a VM request names (a time sets one, null clears it, absent leaves it). */
export const vmDeadlines = (body: { stop_at?: string | null; terminate_at?: string | null }) =>
  requestedDeadlines(body.stop_at, body.terminate_at);

/** A rentable listing as the create form offers it: where it runs and its GPU's share. */
export function listingChoice(row: {
  id: number;
  hourlyRateMicros: bigint;
  providerName: string;
  location: string;
  hostId: string | null;
  isDemoHost: boolean;
  hostMachine: HostMachineRow | null;
  hostStatus: ListingHostStatus;
  hostReadiness: HostReadiness | null;
  hostGpuIndexes: number[];
}): VmListingChoice {
  const share = listingShare(row, row.hostMachine);
  return {
    listing_id: row.id,
    hourly_rate: microsToDollars(row.hourlyRateMicros),
    provider_name: row.providerName,
    location: row.location,
    is_demo_host: row.hostId === null && row.isDemoHost,
    kinds: listingKinds(row.hostStatus, row.hostReadiness, row.hostGpuIndexes),
    max_cpu_cores: share ? share.vcpus : null,
    max_ram_gb: share ? mibAsGb(share.memoryMib) : null,
  };
}

/** The idle stop a VM request names (a field left out: the account default or as it is). */
export const vmIdleStop = (body: { idle_stop_minutes?: number; idle_threshold_percent?: number }) =>
  requestedIdleStop(body.idle_stop_minutes, body.idle_threshold_percent);
