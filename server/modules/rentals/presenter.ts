import type { RentalView } from '../../../shared/contracts/rentals';
import { microsToDollars } from '../../../shared/rules/money';
import type { RentalRow } from './repo';

export function presentRental({ rental, listing, provider }: RentalRow): RentalView {
  const money = (v: bigint | null) => (v === null ? null : microsToDollars(v));
  return {
    id: rental.id,
    gpuListingId: rental.gpuListingId,
    providerId: rental.providerId,
    durationHours: rental.durationHours,
    hourlyRate: microsToDollars(rental.hourlyRateMicros),
    totalCost: microsToDollars(rental.bookedCostMicros),
    storageFee: microsToDollars(rental.storageFeeMicros),
    status: rental.status as RentalView['status'],
    phase: rental.status !== 'active' ? 'ended' : rental.readyAt ? 'ready' : 'provisioning',
    startTime: rental.startTime.toISOString(),
    endsAt: rental.endsAt.toISOString(),
    endTime: rental.endTime?.toISOString() ?? null,
    readyAt: rental.readyAt?.toISOString() ?? null,
    provisioningDeadline: rental.provisioningDeadline.toISOString(),
    sshHost: rental.sshHost,
    sshPort: rental.sshPort,
    sshUsername: rental.sshUsername,
    usedCost: money(rental.usedCostMicros),
    refund: money(rental.refundMicros),
    providerEarnings:
      rental.usedCostMicros === null
        ? null
        : microsToDollars(rental.usedCostMicros - (rental.platformFeeMicros ?? 0n)),
    settledBy: rental.settledBy,
    isDemoHost: listing.isDemoHost,
    gpuListing: { model: listing.model, location: listing.location },
    provider: { companyName: provider.companyName },
  };
}
