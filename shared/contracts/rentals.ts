import { z } from 'zod';
import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';
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
export type CreateRentalBody = z.infer<typeof createRentalBody>;

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
