import { z } from 'zod';
import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';

const money = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

export const createRentalBody = z.object({
  gpuListingId: z.coerce.number().int().positive(),
  providerId: z.coerce.number().int().positive(),
  durationHours: z.coerce
    .number()
    .int({ message: 'Whole hours only' })
    .min(MIN_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' })
    .max(MAX_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' }),
  hourlyRate: money,
  totalCost: money,
});
export type CreateRentalBody = z.infer<typeof createRentalBody>;

export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const userIdParam = z.object({ userId: z.string().uuid({ message: 'Not a user id' }) });
export const providerIdParam = z.object({ providerId: z.coerce.number().int().positive() });

export type RentalStatus = 'active' | 'completed' | 'cancelled';

export interface RentalView {
  id: number;
  gpuListingId: number;
  providerId: number;
  durationHours: number;
  hourlyRate: string;
  /** Booked hours × rate, as sent at rent time (storage excluded). */
  totalCost: string;
  storageFee: string;
  status: RentalStatus;
  /** provisioning until the host is ready; ready while it runs; ended afterwards. */
  phase: 'provisioning' | 'ready' | 'ended';
  startTime: string;
  endsAt: string;
  endTime: string | null;
  readyAt: string | null;
  provisioningDeadline: string;
  sshHost: string | null;
  sshPort: number | null;
  sshUsername: string;
  usedCost: string | null;
  refund: string | null;
  /** The provider's share of the used cost (used cost less the platform fee). */
  providerEarnings: string | null;
  settledBy: string | null;
  isDemoHost: boolean;
  gpuListing: { model: string; location: string };
  provider: { companyName: string };
}
