import type { RentalView } from '../../../shared/contracts/rentals';
import { liveCostEstimate, totalRuntimeHours } from '../../../shared/rules/pricing';

/** How long a rental has run (active: until now, capped at its booked end; ended: until it ended). */
export function runtimeMs(rental: RentalView, now: number): number {
  // Its hours run from when it was ready (issue 39): a rental still provisioning has run none.
  if (rental.readyAt === null) return 0;
  const start = Date.parse(rental.readyAt);
  const end = rental.endTime
    ? Date.parse(rental.endTime)
    : Math.min(now, Date.parse(rental.endsAt));
  return Math.max(0, end - start);
}

/** What a rental has cost so far, storage included; a cancelled rental was refunded in full. */
export function spentOn(rental: RentalView, now: number): number {
  if (rental.status === 'cancelled') return 0;
  if (rental.status === 'completed')
    return Number(rental.usedCost ?? 0) + Number(rental.storageFee);
  const live = Math.min(
    liveCostEstimate(Number(rental.hourlyRate), runtimeMs(rental, now)),
    Number(rental.totalCost),
  );
  return live + Number(rental.storageFee);
}

export function summarize(rentals: RentalView[], now: number) {
  return {
    active: rentals.filter((r) => r.status === 'active'),
    totalRuntimeHours: totalRuntimeHours(
      rentals.filter((r) => r.status !== 'cancelled').map((r) => runtimeMs(r, now)),
    ),
    totalSpent: rentals.reduce((sum, r) => sum + spentOn(r, now), 0),
  };
}
