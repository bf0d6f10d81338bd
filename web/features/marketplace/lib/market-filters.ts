import type { GpuListingView } from '../../../../shared/contracts/listings';
import { INSTANCE_KINDS, type InstanceKind } from '../../../../shared/instance-kinds';
import {
  GPU_COUNT_FILTERS,
  GPU_TYPE_FILTERS,
  SORT_OPTIONS,
} from '../../../../shared/listing-options';
import { type ListingFacts, listingFacts, reliabilityPercent } from './listing-facts';

/**
 * The marketplace's filters and sort as they live in the address (issue 42, part 1), so a
 * filtered view can be shared and the back button returns to the one before. Each is left out
 * of the address while it has its default.
 */
export interface MarketFilters {
  /** The applied search text (typing filters what is loaded; Apply Filters sends it). */
  q: string;
  gpuType: string;
  kind: InstanceKind | '';
  sort: string;
  /** GPUs one rental gets: exactly this many; null any. */
  gpus: number | null;
  /** GB of memory per GPU, at least. */
  minVram: number | null;
  /** The host's 30-day uptime, percent, at least (a host without a figure does not pass). */
  minReliability: number | null;
  /** Dollars per GPU-hour, at most. */
  maxPricePerGpuHour: number | null;
}

export const DEFAULT_FILTERS: MarketFilters = {
  q: '',
  gpuType: 'All GPU Types',
  kind: '',
  sort: '',
  gpus: null,
  minVram: null,
  minReliability: null,
  maxPricePerGpuHour: null,
};

/** Sorted by price per GPU-hour, lowest first (a multi-GPU node beside a single card). */
export const PRICE_PER_GPU_SORT = 'gpu-price-asc';

export const MARKET_SORTS = SORT_OPTIONS;

export const GPU_COUNT_CHOICES = GPU_COUNT_FILTERS;
export const MIN_VRAM_CHOICES = [8, 16, 24, 40, 48, 80] as const;
export const MIN_RELIABILITY_CHOICES = [90, 95, 99, 99.9] as const;
export const MAX_PRICE_CHOICES = [0.5, 1, 2, 3, 5] as const;

/** Address parameter names, short so a shared link stays readable. */
const PARAMS = {
  q: 'q',
  gpuType: 'type',
  kind: 'kind',
  sort: 'sort',
  gpus: 'gpus',
  minVram: 'vram',
  minReliability: 'reliability',
  maxPricePerGpuHour: 'maxGpuHour',
} as const;

/** A number from a list of choices, or null when the address holds anything else. */
function choice(value: string | null, choices: readonly number[]): number | null {
  if (value === null) return null;
  const n = Number(value);
  return choices.includes(n) ? n : null;
}

/** The filters of an address's query (`useSearch()`'s text, with or without its `?`). */
export function readMarketFilters(search: string): MarketFilters {
  const params = new URLSearchParams(search);
  const gpuType = params.get(PARAMS.gpuType);
  const kind = params.get(PARAMS.kind);
  const sort = params.get(PARAMS.sort);
  return {
    q: (params.get(PARAMS.q) ?? '').trim(),
    gpuType:
      gpuType && (GPU_TYPE_FILTERS as readonly string[]).includes(gpuType)
        ? gpuType
        : DEFAULT_FILTERS.gpuType,
    kind:
      kind && (INSTANCE_KINDS as readonly string[]).includes(kind) ? (kind as InstanceKind) : '',
    sort: sort && MARKET_SORTS.some((s) => s.value === sort) ? sort : '',
    gpus: choice(params.get(PARAMS.gpus), GPU_COUNT_CHOICES),
    minVram: choice(params.get(PARAMS.minVram), MIN_VRAM_CHOICES),
    minReliability: choice(params.get(PARAMS.minReliability), MIN_RELIABILITY_CHOICES),
    maxPricePerGpuHour: choice(params.get(PARAMS.maxPricePerGpuHour), MAX_PRICE_CHOICES),
  };
}

/** The query text of some filters ('' for the defaults), without its `?`. */
export function writeMarketFilters(filters: MarketFilters): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAMS) as (keyof MarketFilters)[]) {
    const value = filters[key];
    if (value === null || value === '' || value === DEFAULT_FILTERS[key]) continue;
    params.set(PARAMS[key], String(value));
  }
  return params.toString();
}

/** Whether a listing's figures pass the GPU count, memory, reliability and price filters. */
export function passesFilters(facts: ListingFacts, filters: MarketFilters): boolean {
  const reliability = reliabilityPercent(facts.reliability);
  return (
    (filters.gpus === null || facts.gpus === filters.gpus) &&
    (filters.minVram === null || (facts.vramGb ?? 0) >= filters.minVram) &&
    (filters.minReliability === null ||
      (reliability !== null && reliability >= filters.minReliability)) &&
    (filters.maxPricePerGpuHour === null || facts.pricePerGpuHour <= filters.maxPricePerGpuHour)
  );
}

/**
 * The loaded listings that pass the filters, sorted by price per GPU-hour when asked (lowest
 * first, then by id so the order is stable). The server filters and sorts the same way across
 * its pages (GET /api/gpu-listings); this keeps what is loaded consistent with the address.
 */
export function filterAndSort(
  listings: readonly GpuListingView[],
  filters: MarketFilters,
): GpuListingView[] {
  const kept = listings
    .map((listing) => ({ listing, facts: listingFacts(listing) }))
    .filter(({ facts }) => passesFilters(facts, filters));
  if (filters.sort === PRICE_PER_GPU_SORT) {
    kept.sort(
      (a, b) => a.facts.pricePerGpuHour - b.facts.pricePerGpuHour || a.listing.id - b.listing.id,
    );
  }
  return kept.map(({ listing }) => listing);
}
