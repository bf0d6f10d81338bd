import { z } from 'zod';
import { catalogueMemoryProblem, LISTABLE_MODELS } from '../gpu-models';
import {
  BANDWIDTH_OPTIONS,
  COOLING_OPTIONS,
  type ListingSort,
  MEMORY_OPTIONS,
  PCIE_OPTIONS,
} from '../listing-options';
import { LISTING_TEXT } from '../listing-text';
import { findUnstorableText, hasControlCharacter, UNSTORABLE_TEXT_MESSAGE } from '../rules/text';
import { INSTANCE_KINDS } from './instance-kind';
import { TEXT_LIMITS } from './limits';
import { dollars, MAX_HOURLY_RATE } from './money';
import { serialId } from './params';

const positiveDollars = dollars({ max: MAX_HOURLY_RATE, positive: true });

/** Search text: one line of printable text (the search index keeps one field per line). */
const searchText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((text) => !hasControlCharacter(text), { message: 'Search text is one line of text' });

/** A number in a query string: absent or empty is no filter (the marketplace's filter bar). */
const queryNumber = <T extends z.ZodType<number>>(schema: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : v), schema.optional());

/**
 * The public API's: absent is no filter, empty is refused with the filter's message. Its
 * document types each filter as a number, and the fuzz test holds the API to that (a seed
 * sent `minVramGb=` and got 200, where `z.coerce.number` would have read it as 0).
 */
const strictQueryNumber = <T extends z.ZodType<number>>(schema: T) =>
  z.preprocess((v) => (v === '' ? Number.NaN : v), schema.optional());

/** The numeric filters of the marketplace: their rules, messages and descriptions. */
const NUMBER_FILTERS = {
  /**
   * GPUs one instance of the listing gets (`gpuCount`): a "4x H100" listing is one 4-GPU node
   * per unit (its model names the count, shared/gpu-models.ts parseMultiGpu), a "H100" listing
   * one GPU per unit however many units it has.
   */
  gpuCount: {
    schema: z.coerce
      .number({ message: 'gpuCount must be a whole number from 1 to 64' })
      .int({ message: 'gpuCount must be a whole number from 1 to 64' })
      .min(1, { message: 'gpuCount must be a whole number from 1 to 64' })
      .max(64, { message: 'gpuCount must be a whole number from 1 to 64' }),
    description: 'Only listings whose instances get exactly this many GPUs',
  },
  /** At least this much memory on each GPU (`gpuMemoryGb`), in GB. */
  minVramGb: {
    schema: z.coerce
      .number({ message: 'minVramGb must be a number of GB from 0 to 1024' })
      .min(0, { message: 'minVramGb must be a number of GB from 0 to 1024' })
      .max(1024, { message: 'minVramGb must be a number of GB from 0 to 1024' }),
    description: 'Only listings with at least this many GB of memory on each GPU',
  },
  /**
   * At least this uptime over the last 30 days (`reliability.uptimePercent`); a listing whose
   * host has too little history (null) is left out by any minimum.
   */
  minReliability: {
    schema: z.coerce
      .number({ message: 'minReliability must be a percent from 0 to 100' })
      .min(0, { message: 'minReliability must be a percent from 0 to 100' })
      .max(100, { message: 'minReliability must be a percent from 0 to 100' }),
    description:
      'Only listings whose host was up at least this percent of the last 30 days (hosts with too little history are left out)',
  },
  /** At most this price per GPU-hour (`pricePerGpuHour`), in dollars. */
  maxGpuHourPrice: {
    schema: z.coerce
      .number({ message: 'maxGpuHourPrice must be a price in dollars from 0 to 10000' })
      .min(0, { message: 'maxGpuHourPrice must be a price in dollars from 0 to 10000' })
      .max(10_000, { message: 'maxGpuHourPrice must be a price in dollars from 0 to 10000' }),
    description: 'Only listings costing at most this many dollars per GPU-hour',
  },
};

const numberFilters = <S extends typeof queryNumber>(wrap: S) => ({
  gpuCount: wrap(NUMBER_FILTERS.gpuCount.schema).describe(NUMBER_FILTERS.gpuCount.description),
  minVramGb: wrap(NUMBER_FILTERS.minVramGb.schema).describe(NUMBER_FILTERS.minVramGb.description),
  minReliability: wrap(NUMBER_FILTERS.minReliability.schema).describe(
    NUMBER_FILTERS.minReliability.description,
  ),
  maxGpuHourPrice: wrap(NUMBER_FILTERS.maxGpuHourPrice.schema).describe(
    NUMBER_FILTERS.maxGpuHourPrice.description,
  ),
});

/** The public API's numeric filters: an empty value is a 400 there (`strictQueryNumber`). */
export const publicNumberFilters = numberFilters(strictQueryNumber);

export const listingsQuery = z.object({
  model: searchText(TEXT_LIMITS.searchModel).optional(),
  gpuType: searchText(TEXT_LIMITS.searchGpuType).optional(),
  sort: z
    .enum([
      'price-asc',
      'price-desc',
      'memory',
      'performance',
      'gpu-price-asc',
    ] satisfies ListingSort[])
    .optional()
    .describe(
      'price-asc / price-desc: by the hourly price of one instance; memory: most VRAM first; performance: fastest first; gpu-price-asc: by the price per GPU-hour (the hourly price divided by the GPUs one instance gets), cheapest first',
    ),
  ...numberFilters(queryNumber),
  providerId: serialId.optional(),
  /** Only listings whose host can run this kind of instance now (docs/decisions/025). */
  kind: z.enum(INSTANCE_KINDS, { message: 'kind must be vm or container' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(TEXT_LIMITS.cursor).optional(),
});
export type ListingsQuery = z.infer<typeof listingsQuery>;

export const listingSpecifications = z.object({
  bandwidth: z.enum(BANDWIDTH_OPTIONS).optional(),
  pcieLanes: z.enum(PCIE_OPTIONS).default('16x'),
  powerConsumption: z.string().trim().max(TEXT_LIMITS.powerConsumption).default(''),
  cooling: z.enum(COOLING_OPTIONS).default('Air Cooled'),
  additionalSpecs: z.string().trim().max(TEXT_LIMITS.additionalSpecs).default(''),
});

/** Specifications arrive as JSON text (as the add-listing dialog sends them) or as an object. */
const specificationsInput = z
  .union([z.string().max(TEXT_LIMITS.specificationsJson), z.record(z.string(), z.unknown())])
  .transform((value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      const parsed = JSON.parse(value) as unknown;
      // Inside JSON text, "\u0000" is six harmless characters until parsed: check again.
      const bad = findUnstorableText(parsed);
      if (bad) {
        ctx.addIssue({ code: 'custom', path: bad, message: UNSTORABLE_TEXT_MESSAGE });
        return z.NEVER;
      }
      return parsed;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Specifications must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(listingSpecifications);

const cudaCores = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : Number(v)))
  .pipe(z.number().int().min(1).max(1_000_000).nullable().optional());

/**
 * The host a listing's instances run on (one of the provider's hosts, shared/contracts/
 * hosts.ts); null or absent: no host yet. Its GPU indexes (nvidia-smi `index`), one per unit;
 * empty with a host means the first totalCount GPUs.
 */
export const listingHostId = z.string().uuid({ message: 'Choose one of your hosts' }).nullable();
export const listingHostGpuIndexes = z
  .array(
    z
      .number({ message: 'GPU indexes are whole numbers from 0 to 255' })
      .int({ message: 'GPU indexes are whole numbers from 0 to 255' })
      .min(0, { message: 'GPU indexes are whole numbers from 0 to 255' })
      .max(255, { message: 'GPU indexes are whole numbers from 0 to 255' }),
  )
  .max(64)
  .refine((list) => new Set(list).size === list.length, {
    message: 'Each GPU index may appear once',
  });

/**
 * A listing's model and memory must be a catalogue GPU's (shared/gpu-models.ts): the reason
 * goes on `memory`. Runs where both are given; a change of one alone is checked against the
 * stored other by the server (server/modules/listings/service.ts).
 */
export function matchesCatalogue(
  body: { model?: string | undefined; memory?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.model === undefined || body.memory === undefined) return;
  const problem = catalogueMemoryProblem(body.model, body.memory);
  if (problem) ctx.addIssue({ code: 'custom', path: ['memory'], message: problem });
}

/** The fields of a new listing, before the catalogue check (the public API omits providerId). */
export const newListingFields = z.object({
  providerId: serialId,
  model: z.enum(LISTABLE_MODELS as [string, ...string[]], { message: LISTING_TEXT.fields.model }),
  memory: z.enum(MEMORY_OPTIONS, { message: LISTING_TEXT.fields.memory }),
  cudaCores,
  location: z
    .string()
    .trim()
    .min(2, { message: LISTING_TEXT.fields.location })
    .max(TEXT_LIMITS.listingLocation, {
      message: `Location must be at most ${TEXT_LIMITS.listingLocation} characters`,
    }),
  bandwidth: z.enum(BANDWIDTH_OPTIONS).default('1 Gbps'),
  hourlyRate: positiveDollars,
  /** Ignored: the server derives it (hourly × 24). Accepted so the dialog's payload validates. */
  dailyRate: z.unknown().optional(),
  status: z.literal('available').optional(),
  availableCount: z.coerce.number().int().min(1, { message: 'At least 1' }).max(1000).default(1),
  totalCount: z.unknown().optional(),
  specifications: specificationsInput.optional(),
  hostId: listingHostId.optional(),
  hostGpuIndexes: listingHostGpuIndexes.optional(),
});
export const createListingBody = newListingFields.superRefine(matchesCatalogue);
/** What the add-listing form sends. */
export type CreateListingBody = z.input<typeof createListingBody>;
/** A new listing as the server works with it once parsed. */
export type NewListing = z.output<typeof createListingBody>;

export const updateListingBody = z
  .object({
    model: newListingFields.shape.model.optional(),
    memory: newListingFields.shape.memory.optional(),
    cudaCores,
    location: newListingFields.shape.location.optional(),
    bandwidth: z.enum(BANDWIDTH_OPTIONS).optional(),
    hourlyRate: positiveDollars.optional(),
    status: z.enum(['available', 'maintenance']).optional(),
    totalCount: z.coerce.number().int().min(1).max(1000).optional(),
    specifications: specificationsInput.optional(),
    hostId: listingHostId.optional(),
    hostGpuIndexes: listingHostGpuIndexes.optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: 'Nothing to change',
  })
  .superRefine(matchesCatalogue);
/** What the edit-listing form sends. */
export type UpdateListingBody = z.input<typeof updateListingBody>;
/** The changes as the server works with them once parsed. */
export type ListingChanges = z.output<typeof updateListingBody>;

export const LISTING_STATUSES = ['available', 'rented', 'maintenance'] as const;

/** Where an instance's machine runs; offline: its host stopped heartbeating. */
export const INSTANCE_HOST_STATUSES = ['demo', 'online', 'offline', 'none'] as const;
export type InstanceHostStatus = (typeof INSTANCE_HOST_STATUSES)[number];

/**
 * Where a listing's machines run, as an instance's are, and `not_ready`: its host is online
 * but says none of the GPUs the listing sells can serve a VM (docs/decisions/021).
 */
export const LISTING_HOST_STATUSES = ['demo', 'online', 'not_ready', 'offline', 'none'] as const;
export type ListingHostStatus = (typeof LISTING_HOST_STATUSES)[number];

/**
 * What one GPU's share of the listing's host gives an instance (shared/rules/gpu-share.ts):
 * whole vCPUs and GB of RAM (one decimal, rounded down). Null where no host has reported yet.
 */
export const gpuShareView = z
  .object({
    vcpus: z.number().int().describe('vCPUs an instance of one GPU gets at most'),
    memoryGb: z.number().describe('GB of RAM an instance of one GPU gets at most'),
  })
  .nullable();
export type GpuShareView = z.infer<typeof gpuShareView>;

/**
 * How reliable a listing's host has been: the share of the last `windowDays` days (or of the
 * days since it enrolled, when fewer) it was not in a recorded outage, from the same outages
 * providers see (docs/decisions/022). `uptimePercent` is null while the host has been
 * observed for fewer than RELIABILITY_MIN_OBSERVED_DAYS days ("too little history", never a
 * 100% it did not earn) and for a listing without a host.
 */
export const RELIABILITY_WINDOW_DAYS = 30;
export const RELIABILITY_MIN_OBSERVED_DAYS = 3;
export const reliabilityView = z
  .object({
    uptimePercent: z
      .number()
      .nullable()
      .describe(
        'Percent of the window the host was up, one decimal rounded down; null: too little history',
      ),
    windowDays: z.literal(RELIABILITY_WINDOW_DAYS).describe('The window measured, in days'),
    observedDays: z
      .number()
      .describe(
        'Days of the window the host has been observed (since it enrolled), one decimal rounded down',
      ),
  })
  .describe('Its host uptime over the last 30 days, measured from recorded outages');
export type ReliabilityView = z.infer<typeof reliabilityView>;

export const gpuListingView = z.object({
  id: z.number(),
  providerId: z.number(),
  model: z.string(),
  memory: z.string(),
  cudaCores: z.number().nullable(),
  tensorCores: z.number().nullable(),
  location: z.string(),
  bandwidth: z.string(),
  hourlyRate: z.string(),
  dailyRate: z.string(),
  status: z.enum(LISTING_STATUSES),
  availableCount: z.number(),
  totalCount: z.number(),
  /** JSON text: bandwidth, pcieLanes, powerConsumption, cooling, additionalSpecs. */
  specifications: z.string(),
  isDemoHost: z.boolean(),
  /**
   * Where its instances run: demo (the in-process demo host), online or offline (its
   * provider's host; offline listings cannot be rented), none (no host connected yet).
   */
  hostStatus: z.enum(LISTING_HOST_STATUSES),
  hostId: z.string().nullable(),
  /**
   * The kinds of instance its host can run now (docs/decisions/025): `vm` (GPUs passed through),
   * `container` (GPUs through CDI). The demo host offers both; a listing without a host none.
   */
  kinds: z.array(z.enum(INSTANCE_KINDS)),
  /**
   * Its host's uptime over the last 30 days, percent with one decimal; null without a host.
   * Kept for older readers: `reliability` says the same and when there is too little history.
   */
  hostUptimePercent: z.number().nullable(),
  /** What one GPU's share of its host gives: shown before renting, the most a create may ask. */
  gpuShare: gpuShareView,
  /** GPUs one instance gets: 4 for a "4x H100" node, 1 for a "H100" (whatever its units). */
  gpuCount: z.number().int(),
  /** Memory on each of those GPUs, GB (a "4x H100" has 80 on each, 320 in `memory`). */
  gpuMemoryGb: z.number(),
  /** The hourly price divided by gpuCount, dollars (to the cent, as hourlyRate). */
  pricePerGpuHour: z.string(),
  /**
   * Disk one instance gets, GB: its GPUs' share of its host's disk (docs/decisions/024), null
   * until its host has reported one.
   */
  diskGb: z.number().nullable(),
  /** The NVIDIA driver its host reports (`550.54.15`); null when unknown. */
  driverVersion: z.string().nullable(),
  /** The highest CUDA version that driver supports (`12.4`); null when unknown. */
  cudaVersion: z.string().nullable(),
  reliability: reliabilityView,
  provider: z.object({
    id: z.number(),
    companyName: z.string(),
    location: z.string(),
    isVerified: z.boolean(),
    reputation: z.string(),
  }),
});
export type GpuListingView = z.infer<typeof gpuListingView>;

export const marketplaceStats = z.object({
  availableGPUs: z.number(),
  avgPrice: z.string(),
  activeRentals: z.number(),
  providersOnline: z.number(),
});
export type MarketplaceStats = z.infer<typeof marketplaceStats>;

// Defined with the constants so the web reads it without loading zod and these schemas.
export { NEXT_CURSOR_HEADER } from '../constants';
