import { z } from 'zod';
import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';
import { INSTANCE_ACTIONS, INSTANCE_STATES } from '../rules/instance-lifecycle';
import { API_KEY_PERMISSIONS, type ApiKeyPermission, RATE_TIERS, type RateTier } from './api-keys';
import { TEXT_LIMITS } from './limits';
import { listingsQuery } from './listings';
import { bodySerialId, serialId } from './params';
import { rentalView } from './rentals';

/**
 * The public API, /api/v1 (spec part 2 sections 3, 6, 7, 8, 9): bearer API keys, rate tiers,
 * the spec's shapes. The OpenAPI document (docs/openapi.json) is generated from these schemas,
 * and the CLI (cli/) reads its types from here too.
 */

export const PUBLIC_API_BASE = '/api/v1';
export const DEFAULT_API_URL = 'http://localhost:5000';

/** Requests per hour of each tier (spec part 2 section 9). */
export const TIER_LIMITS: Record<RateTier, number> = RATE_TIERS;
export const RATE_WINDOW_SECONDS = 3600;

/** Which permission a call needs: read for reads, write for changes, admin for keys. */
export type RequiredPermission = ApiKeyPermission;

/** Hours in a JSON body: a number as sent (no coercion of "2", true or [2]). */
const hours = z
  .number({ message: 'Whole hours only' })
  .int({ message: 'Whole hours only' })
  .min(MIN_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' })
  .max(MAX_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' });

// ---- GPU listings --------------------------------------------------------------------------

export const publicListingsQuery = listingsQuery.omit({ providerId: true });

/** The spec's public listing shape: GPU listing {id, model, memory, …, provider {name, reputation}}. */
export const publicGpuListing = z
  .object({
    id: z.number().int(),
    model: z.string(),
    memory: z.string(),
    cudaCores: z.number().int().nullable(),
    location: z.string(),
    hourlyRate: z.string().describe('US dollars per hour, e.g. "1.45"'),
    dailyRate: z.string().describe('US dollars per day (hourly × 24)'),
    availableCount: z.number().int(),
    provider: z.object({ name: z.string(), reputation: z.string() }),
  })
  .meta({ id: 'GpuListing' });
export type PublicGpuListing = z.infer<typeof publicGpuListing>;

export const gpuListingsPage = z.object({
  gpus: z.array(publicGpuListing),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type GpuListingsPage = z.infer<typeof gpuListingsPage>;

// ---- Instances -----------------------------------------------------------------------------

export const createInstanceBody = z
  .object({
    gpuListingId: bodySerialId,
    durationHours: hours
      .optional()
      .describe('With a duration: a booked rental paid up front. Without: metered per minute.'),
    sshKeyId: z
      .string()
      .uuid({ message: 'Not an SSH key id' })
      .optional()
      .describe('One of your SSH keys (all your keys are installed on the instance).'),
  })
  .meta({ id: 'CreateInstance' });
export type CreateInstanceBody = z.input<typeof createInstanceBody>;

export const publicInstance = z
  .object({
    id: z.number().int(),
    status: z.enum(INSTANCE_STATES),
    sshHost: z.string().nullable(),
    sshPort: z.number().int().nullable(),
    sshUsername: z.string(),
    /** When it is expected (or was) ready; null once it has ended or while it is stopped. */
    estimatedStartTime: z.string().nullable(),
    gpuListingId: z.number().int(),
    gpuModel: z.string(),
    location: z.string(),
    billingPlan: z.enum(['booked', 'metered']),
    hourlyRate: z.string(),
    durationHours: z.number().int().nullable(),
    createdAt: z.string(),
    endsAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    /** What may be done now: stop, start, terminate. */
    actions: z.array(z.enum(INSTANCE_ACTIONS)),
  })
  .meta({ id: 'Instance' });
export type PublicInstance = z.infer<typeof publicInstance>;

export const instanceAnswer = z.object({ instance: publicInstance });
export type InstanceAnswer = z.infer<typeof instanceAnswer>;

export const instancesQuery = z.object({
  status: z.enum(INSTANCE_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(TEXT_LIMITS.cursor).optional(),
});
export type InstancesQuery = z.input<typeof instancesQuery>;

export const instancesPage = z.object({
  instances: z.array(publicInstance),
  nextCursor: z.string().nullable(),
});
export type InstancesPage = z.infer<typeof instancesPage>;

export const instanceIdParam = z.object({ id: serialId });

// ---- Rentals (the documentation page's older reading) --------------------------------------

export const createPublicRentalBody = z.object({
  gpuListingId: bodySerialId,
  duration: hours.describe('Hours to book (1–720)'),
});
export const updatePublicRentalBody = z.object({
  action: z.literal('stop', { message: 'The only change a rental takes is "stop"' }),
});
export const rentalAnswer = z.object({ rental: rentalView });
export const rentalsList = z.object({ rentals: z.array(rentalView) });
export const rentalsQuery = z.object({
  status: z
    .enum(['active', 'completed', 'cancelled', 'all'])
    .default('active')
    .describe('Which rentals: the active ones (default), ended ones, or all'),
});

// ---- Account -------------------------------------------------------------------------------

export const publicAccount = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    balance: z.string().describe('Credit balance in dollars'),
    currency: z.literal('USD'),
    apiKey: z.object({
      id: z.string(),
      permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
      rateTier: z.enum(Object.keys(RATE_TIERS) as [RateTier, ...RateTier[]]),
      requestsPerHour: z.number().int(),
    }),
  })
  .meta({ id: 'Account' });
export type PublicAccount = z.infer<typeof publicAccount>;

export const usageLine = z.object({
  instanceId: z.number().int(),
  gpuModel: z.string(),
  billingPlan: z.enum(['booked', 'metered']),
  status: z.enum(INSTANCE_STATES),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Dollars charged for it so far (a booked rental: its booking and storage, less any refund). */
  cost: z.string(),
});
export const accountUsage = z
  .object({
    currency: z.literal('USD'),
    totalCost: z.string(),
    instances: z.array(usageLine),
  })
  .meta({ id: 'Usage' });
export type AccountUsage = z.infer<typeof accountUsage>;

// ---- API keys (admin) ----------------------------------------------------------------------

export { apiKeyIdParam, apiKeyView } from './api-keys';
