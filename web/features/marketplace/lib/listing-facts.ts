import type { GpuListingView, ListingHostStatus } from '../../../../shared/contracts/listings';
import { parseMultiGpu } from '../../../../shared/gpu-models';
import { pricePerGpuHour } from '../../../../shared/rules/listing-compare';

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
  /** GB of memory per GPU. */
  vramGb: number | null;
  pricePerHour: number;
  pricePerGpuHour: number;
  /** One GPU's share of its host (docs/decisions/024); null until its host reports. */
  vcpus: number | null;
  ramGb: number | null;
  reliability: Reliability;
}

/** "80GB" → 80. */
function gigabytes(text: string): number | null {
  const match = /(\d+(?:\.\d+)?)\s*GB/i.exec(text);
  return match ? Number(match[1]) : null;
}

export function listingFacts(listing: GpuListingView): ListingFacts {
  const { count } = parseMultiGpu(listing.model);
  const pricePerHour = Number(listing.hourlyRate);
  return {
    gpus: count,
    vramGb: gigabytes(listing.memory),
    pricePerHour,
    pricePerGpuHour: pricePerGpuHour(pricePerHour, count),
    vcpus: listing.gpuShare?.vcpus ?? null,
    ramGb: listing.gpuShare?.memoryGb ?? null,
    reliability:
      listing.hostUptimePercent !== null
        ? { kind: 'measured', percent: listing.hostUptimePercent }
        : listing.hostId === null && !listing.isDemoHost
          ? { kind: 'no-host' }
          : { kind: 'too-little-history' },
  };
}

/** The reliability as a number for filters and compare rows; null when not measured. */
export function reliabilityPercent(reliability: Reliability): number | null {
  return reliability.kind === 'measured' ? reliability.percent : null;
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
