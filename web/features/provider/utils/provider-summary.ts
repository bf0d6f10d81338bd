import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { dollarsToMicros, microsToDollars } from '../../../../shared/rules/money';

export interface ProviderSummary {
  totalGpus: number;
  availableGpus: number;
  activeRentals: number;
  /** USD as a dollar string: the provider's share of every settled rental. */
  totalRevenue: string;
}

/** The four stats cards, from the provider's listings and rentals. */
export function summarizeProvider(
  listings: readonly GpuListingView[],
  rentals: readonly RentalView[],
): ProviderSummary {
  let revenue = 0n;
  for (const rental of rentals) {
    if (rental.providerEarnings !== null) revenue += dollarsToMicros(rental.providerEarnings);
  }
  return {
    totalGpus: listings.reduce((sum, l) => sum + l.totalCount, 0),
    // Units in maintenance cannot be rented, so they do not count as available.
    availableGpus: listings.reduce(
      (sum, l) => sum + (l.status === 'maintenance' ? 0 : l.availableCount),
      0,
    ),
    activeRentals: rentals.filter((r) => r.status === 'active').length,
    totalRevenue: microsToDollars(revenue),
  };
}

/** Renter-facing words for a rental's phase. */
export function rentalPhaseLabel(rental: Pick<RentalView, 'phase' | 'status'>): string {
  if (rental.phase === 'provisioning') return 'Provisioning';
  if (rental.phase === 'ready') return 'Running';
  if (rental.status === 'cancelled') return 'Cancelled';
  return 'Completed';
}

/** Ended rentals, the most recently ended first. */
export function endedRentals(rentals: readonly RentalView[]): RentalView[] {
  return rentals
    .filter((r) => r.status !== 'active')
    .sort((a, b) => (b.endTime ?? b.startTime).localeCompare(a.endTime ?? a.startTime));
}
