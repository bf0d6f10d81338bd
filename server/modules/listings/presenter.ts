import {
  type GpuListingView,
  type GpuShareView,
  RELIABILITY_WINDOW_DAYS,
  type ReliabilityView,
} from '../../../shared/contracts/listings';
import { sellableUnits } from '../../../shared/rules/gpu-binding';
import { microsToDollars } from '../../../shared/rules/money';
import { listingKinds } from '../hosts/kind-readiness';
import { type HostMachineRow, listingDiskGb, listingShare, shareView } from './gpu-share';
import type { HostKindFacts, ListingRow } from './repo';

/**
 * `uptime`: the listing's host's uptime score (null for demo listings and new hosts).
 * Marketplace pages are written by the database in this same shape (page-query.ts
 * MARKET_JSON); change both together (listings.test.ts compares them).
 */
/** No history: a listing without a host, or measured nowhere yet. */
export const NO_RELIABILITY: ReliabilityView = {
  uptimePercent: null,
  windowDays: RELIABILITY_WINDOW_DAYS,
  observedDays: 0,
};

/**
 * `reliability`: measured at the caller's time (listingsRepo.reliabilityOf); absent, the row's
 * own (measured when it was read).
 */
export function presentListing(
  { listing, provider, hostStatus, hostMachine, hostReadiness, reliabilityJson }: ListingRow,
  uptime: ReadonlyMap<string, number | null> = new Map(),
  reliability?: ReliabilityView,
): GpuListingView {
  const specs = listing.specifications ?? {};
  return {
    id: listing.id,
    providerId: listing.providerId,
    model: listing.model,
    memory: listing.memory,
    cudaCores: listing.cudaCores,
    tensorCores: listing.tensorCores,
    location: listing.location,
    bandwidth: listing.bandwidth,
    hourlyRate: microsToDollars(listing.hourlyRateMicros),
    dailyRate: microsToDollars(listing.hourlyRateMicros * 24n),
    status: listing.status as GpuListingView['status'],
    availableCount: sellableUnits(listing.availableCount, listing.unreadyGpus),
    totalCount: listing.totalCount,
    specifications: JSON.stringify({ bandwidth: listing.bandwidth, ...specs }),
    isDemoHost: listing.isDemoHost,
    hostStatus,
    hostId: listing.hostId,
    kinds: listingKinds(hostStatus, hostReadiness, listing.hostGpuIndexes),
    hostUptimePercent: listing.hostId ? (uptime.get(listing.hostId) ?? null) : null,
    gpuShare: shareView(listingShare(listing, hostMachine)),
    gpuCount: listing.gpuCount,
    gpuMemoryGb: listing.gpuMemoryGb,
    pricePerGpuHour: microsToDollars(listing.gpuHourRateMicros),
    ...machineFacts(listing, listing.hostId || listing.isDemoHost ? hostMachine : null),
    reliability:
      reliability ??
      (reliabilityJson ? (JSON.parse(reliabilityJson) as ReliabilityView) : NO_RELIABILITY),
    provider: {
      id: provider.id,
      companyName: provider.companyName,
      location: provider.location,
      isVerified: provider.isVerified,
      reputation: provider.reputation,
    },
  };
}

/**
 * A page of listings as the database wrote it (page-query.ts), each listing's
 * hostUptimePercent filled in from `uptime`. The database writes
 * `"hostId":<id>,"hostUptimePercent":null` for each listing: inside a JSON string every quote
 * is escaped, so this pattern can only be those keys.
 */
export function withHostUptime(json: string, uptime: ReadonlyMap<string, number | null>): string {
  if (uptime.size === 0) return json;
  return json.replace(UPTIME_SLOT, (slot, id: string) => {
    const percent = uptime.get(JSON.parse(id) as string);
    return percent === undefined || percent === null
      ? slot
      : `"hostId":${id},"hostUptimePercent":${JSON.stringify(percent)}`;
  });
}

const UPTIME_SLOT = /"hostId":("(?:[^"\\]|\\.)*"),"hostUptimePercent":null/g;

/**
 * A page's listings with the gpuShare of each listing on a host filled in. The database writes
 * `"gpuShare":{"of":<host id>}` for those (page-query.ts); `shares` holds each host's share by
 * its id, null where the host has not reported its machine. Like UPTIME_SLOT, the pattern
 * cannot occur inside a JSON string. A slot whose host is unknown becomes null. Each host's
 * share is written as JSON once per page, however many of its listings the page holds.
 */
export function withGpuShares(
  json: string,
  shares: ReadonlyMap<string, GpuShareView | null>,
): string {
  if (shares.size === 0) return json;
  const written = new Map<string, string>();
  for (const [id, share] of shares) written.set(JSON.stringify(id), JSON.stringify(share));
  return json.replace(
    SHARE_SLOT,
    (_slot, of: string) => `"gpuShare":${written.get(of) ?? shareOfUnknownHost(of, shares)}`,
  );
}

/** A host id the database wrote with escapes JSON.stringify does not use (never in practice). */
function shareOfUnknownHost(of: string, shares: ReadonlyMap<string, GpuShareView | null>) {
  return JSON.stringify(shares.get(JSON.parse(of) as string) ?? null);
}

const SHARE_SLOT = /"gpuShare":\{"of":("(?:[^"\\]|\\.)*")\}/g;

/**
 * A page's listings with the kinds of each listing on a host filled in. The database writes
 * `"kinds":{"kindsOf":<host id>,"gpus":[…]}` for those (page-query.ts); `hosts` holds what each
 * host's kinds are read from (its verdict, and whether it is online), by its id. Like
 * UPTIME_SLOT, the pattern cannot occur inside a JSON string. A host not found runs nothing.
 */
export function withKinds(json: string, hosts: ReadonlyMap<string, HostKindFacts>): string {
  if (!json.includes('"kindsOf"')) return json;
  return json.replace(KINDS_SLOT, (_slot, of: string, gpus: string) => {
    const host = hosts.get(JSON.parse(of) as string);
    const kinds = host?.online
      ? listingKinds('online', host.readiness, JSON.parse(gpus) as number[])
      : [];
    return `"kinds":${JSON.stringify(kinds)}`;
  });
}

/** What a host's listings' kinds are read from: its stored verdict, and whether it is online. */

const KINDS_SLOT = /"kinds":\{"kindsOf":("(?:[^"\\]|\\.)*"),"gpus":(\[[0-9, ]*\])\}/g;

/** A listing's disk and its machine's versions (null where the machine has not said). */
function machineFacts(
  listing: { gpuCount: number },
  machine: HostMachineRow | null | undefined,
): Pick<GpuListingView, 'diskGb' | 'driverVersion' | 'cudaVersion'> {
  return {
    diskGb: listingDiskGb(listing, machine),
    driverVersion: machine?.driverVersion ?? null,
    cudaVersion: machine?.cudaVersion ?? null,
  };
}

/**
 * A page's listings with their machine's facts filled in. The database writes
 * `"machineOf":{"of":<host id>}` for a listing on a host (its machine from `machines`, by host
 * id), the demo machine's own JSON for a demo listing, null for neither (page-query.ts
 * COMPARE_SLOT), and `"gpuShare":{"demo":<machine>}` for a demo listing with a machine. Like
 * UPTIME_SLOT, the patterns cannot occur inside a JSON string; the objects hold no braces.
 *
 * Each distinct slot's text is filled once a page: a page's listings share a few machines and
 * GPU counts (issue 43: filling every slot was up to half of these passes' time). Two passes,
 * each found by its own literal start: one pattern for both, starting at every quote of the
 * page's JSON, was slower on a page of real listings.
 */
export function withMachines(
  json: string,
  machines: ReadonlyMap<string, HostMachineRow | null>,
): string {
  // One page's texts by slot: each distinct slot is filled once.
  const filled = new Map<string, string>();
  const once = (slot: string, fill: () => string) => {
    let text = filled.get(slot);
    if (text === undefined) {
      text = fill();
      filled.set(slot, text);
    }
    return text;
  };
  return json
    .replace(DEMO_SHARE_SLOT, (slot, machine: string) =>
      once(slot, () => {
        const share = listingShare(
          { hostId: null, isDemoHost: true },
          JSON.parse(machine) as HostMachineRow,
        );
        return `"gpuShare":${JSON.stringify(shareView(share))}`;
      }),
    )
    .replace(MACHINE_SLOT, (slot, gpuCount: string, of: string) =>
      once(slot, () => {
        const parsed = JSON.parse(of) as (HostMachineRow & { of?: string }) | null;
        const machine = parsed && typeof parsed.of === 'string' ? machines.get(parsed.of) : parsed;
        return JSON.stringify(machineFacts({ gpuCount: Number(gpuCount) }, machine)).slice(1, -1);
      }),
    );
}

const DEMO_SHARE_SLOT = /"gpuShare":\{"demo":(\{[^{}]*\})\}/g;
/** `"machineOf":[<the listing's gpuCount>,<machine, host or null>]`. */
const MACHINE_SLOT = /"machineOf":\[(\d+),(\{[^{}]*\}|null)\]/g;
