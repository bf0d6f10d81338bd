import { z } from 'zod';
import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';
import { INSTANCE_STATES } from '../rules/instance-lifecycle';
import { billingPlan } from './billing-plans';
import { launchWarnings } from './launch-warnings';
import { dollars, MAX_HOURLY_RATE } from './money';
import { serialId } from './params';

export const createRentalBody = z.object({
  gpuListingId: serialId,
  providerId: serialId,
  durationHours: z.coerce
    .number()
    .int({ message: 'Whole hours only' })
    .min(MIN_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' })
    .max(MAX_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' }),
  hourlyRate: dollars({ max: MAX_HOURLY_RATE }),
  totalCost: dollars(),
});
/** What the rent dialog sends. */
export type CreateRentalBody = z.input<typeof createRentalBody>;
/** What the server works with once the body is parsed. */
export type CreateRentalInput = z.output<typeof createRentalBody>;

export const RENTAL_STATUSES = ['active', 'completed', 'cancelled'] as const;
export type RentalStatus = (typeof RENTAL_STATUSES)[number];

export const rentalView = z.object({
  id: z.number(),
  gpuListingId: z.number(),
  providerId: z.number(),
  durationHours: z.number(),
  hourlyRate: z.string(),
  /** Booked hours × rate, as sent at rent time (storage excluded). */
  totalCost: z.string(),
  storageFee: z.string(),
  status: z.enum(RENTAL_STATUSES),
  /** provisioning until the host is ready; ready while it runs; ended afterwards. */
  phase: z.enum(['provisioning', 'ready', 'ended']),
  /**
   * "provisioning — not charged" until it is ready (its booked hours run from then), "host
   * unreachable — not charged" while dark; null otherwise (shared/rules/compute-billing.ts).
   */
  computeChargeNote: z.string().nullable(),
  /** The lifecycle state as it is (terminating until its host confirms the end). */
  state: z.enum(INSTANCE_STATES),
  /** While provisioning: its host's step ("downloading image (42%)", "booting"), or null. */
  provisioningStep: z.string().nullable(),
  startTime: z.string(),
  endsAt: z.string(),
  endTime: z.string().nullable(),
  readyAt: z.string().nullable(),
  provisioningDeadline: z.string(),
  sshHost: z.string().nullable(),
  sshPort: z.number().nullable(),
  sshUsername: z.string(),
  /** The guest's SSH host key fingerprint (`SHA256:…`), once its host reported the key. */
  sshHostKeyFingerprint: z.string().nullable(),
  /**
   * The web console's page (the VM dashboard's own console), while it runs with its SSH
   * address and a console key; null otherwise (a rental made before rentals had one).
   */
  webConsole: z.string().nullable(),
  usedCost: z.string().nullable(),
  refund: z.string().nullable(),
  /**
   * The provider's share (used cost less the platform fee). On the provider's own list: what
   * its earnings account took for this instance in the ledger, of either plan.
   */
  providerEarnings: z.string().nullable(),
  /** booked (hours paid up front) or metered (charged by the minute). */
  billingPlan: billingPlan,
  /**
   * Only on the provider's own list (GET /api/rentals/provider/:id): its earnings from the
   * ledger, to the cent — compute (the provider's share of each minute or of the settled
   * hours; storage is the platform's) and outage credits paid out of them (negative).
   */
  earnings: z
    .object({ compute: z.string(), outageCredits: z.string(), total: z.string() })
    .nullable(),
  settledBy: z.string().nullable(),
  isDemoHost: z.boolean(),
  gpuListing: z.object({ model: z.string(), location: z.string() }),
  provider: z.object({ companyName: z.string() }),
});
export type RentalView = z.infer<typeof rentalView>;

/** POST /api/rentals: the rental and what the renter should know about it (no SSH key). */
export const launchedRentalView = rentalView.extend({ warnings: launchWarnings });
export type LaunchedRentalView = z.infer<typeof launchedRentalView>;
