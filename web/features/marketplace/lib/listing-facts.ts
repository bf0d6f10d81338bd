import type { GpuListingView, ListingHostStatus } from '../../../../shared/contracts/listings';
import { shareLabel } from '../../../../shared/rules/gpu-share';

/** A host's 30-day uptime as a card shows it: a figure, too little history, or no host at all. */
export type Reliability =
  | { kind: 'measured'; percent: number }
  | { kind: 'too-little-history' }
  | { kind: 'no-host' };

/**
 * What a card and the compare view show of a listing, read once from its view: the figures
 * the marketplace's filters and the compare rows work with.
 */
export interface ListingFacts {
  /** GPUs one rental of it gets ("4x H100": 4). */
  gpus: number;
  /** GB of memory on each GPU. */
  vramGb: number;
  pricePerHour: number;
  pricePerGpuHour: number;
  /** One GPU's share of its host (docs/decisions/024); null until its host reports. */
  vcpus: number | null;
  ramGb: number | null;
  /** Disk one instance gets, GB; null until its host reports one. */
  diskGb: number | null;
  /** What its host reports of its NVIDIA driver; null when unknown. */
  driverVersion: string | null;
  cudaVersion: string | null;
  reliability: Reliability;
}

export function listingFacts(listing: GpuListingView): ListingFacts {
  const uptime = listing.reliability.uptimePercent;
  return {
    gpus: listing.gpuCount,
    vramGb: listing.gpuMemoryGb,
    pricePerHour: Number(listing.hourlyRate),
    pricePerGpuHour: Number(listing.pricePerGpuHour),
    vcpus: listing.gpuShare?.vcpus ?? null,
    ramGb: listing.gpuShare?.memoryGb ?? null,
    diskGb: listing.diskGb,
    driverVersion: listing.driverVersion,
    cudaVersion: listing.cudaVersion,
    reliability:
      uptime !== null
        ? { kind: 'measured', percent: uptime }
        : listing.hostStatus === 'none'
          ? { kind: 'no-host' }
          : { kind: 'too-little-history' },
  };
}

/** The reliability as a number for filters and compare rows; null when not measured. */
export function reliabilityPercent(reliability: Reliability): number | null {
  return reliability.kind === 'measured' ? reliability.percent : null;
}

/**
 * Its host's share as the card shows it: "8 vCPUs · 25.5 GB RAM per GPU", or
 * that its host has not reported it yet.
 */
export function shareWords(listing: GpuListingView): string {
  if (!listing.gpuShare) return 'CPU and RAM not reported by its host yet';
  return `${shareLabel(listing.gpuShare)} per GPU`;
}

/** Its host's disk for one GPU's share: "200 GB disk per GPU" (a line of its own on the card). */
export function diskWords(listing: GpuListingView): string {
  return listing.diskGb !== null ? `${listing.diskGb} GB disk per GPU` : 'Disk not reported';
}

/** "Driver 550.54.15 · CUDA 12.4", or null when its host reported neither. */
export function driverWords(facts: ListingFacts): string | null {
  const parts: string[] = [];
  if (facts.driverVersion) parts.push(`Driver ${facts.driverVersion}`);
  if (facts.cudaVersion) parts.push(`CUDA ${facts.cudaVersion}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The reliability in words, the same on the card and in the compare view. */
export function reliabilityLabel(reliability: Reliability): string {
  switch (reliability.kind) {
    case 'measured':
      return `${reliability.percent.toFixed(1)}% uptime (30 days)`;
    case 'too-little-history':
      return 'Too little history to measure uptime';
    case 'no-host':
      return 'No host connected';
  }
}

/** Where a listing's machines run, in words (the card's and the compare view's). */
export const HOST_STATUS_LABELS: Record<ListingHostStatus, string> = {
  demo: 'Demo host',
  online: 'Host online',
  not_ready: 'Host not ready',
  offline: 'Host offline',
  none: 'No host connected',
};
