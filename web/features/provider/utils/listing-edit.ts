import type { GpuListingView } from '../../../../shared/contracts/listings';
import { sameDollars } from '../../../../shared/rules/pricing';
import type { UpdateListingChanges } from '../api/update-listing';

export interface EditListingValues {
  hourlyRate: string;
  location: string;
  bandwidth: string;
  totalCount: string;
  status: 'available' | 'maintenance';
}

export function editValuesOf(listing: GpuListingView): EditListingValues {
  return {
    hourlyRate: listing.hourlyRate,
    location: listing.location,
    bandwidth: listing.bandwidth,
    totalCount: String(listing.totalCount),
    status: listing.status === 'maintenance' ? 'maintenance' : 'available',
  };
}

/** Units out on rent right now: the total can never go below this. */
export function unitsRented(listing: GpuListingView): number {
  return Math.max(0, listing.totalCount - listing.availableCount);
}

/** Only what the provider changed, so a save never overwrites what they did not touch. */
export function listingChanges(
  listing: GpuListingView,
  values: EditListingValues,
): UpdateListingChanges {
  const before = editValuesOf(listing);
  const changes: UpdateListingChanges = {};
  const rate = values.hourlyRate.trim();
  if (!sameDollars(rate, before.hourlyRate)) changes.hourlyRate = rate;
  const location = values.location.trim();
  if (location !== before.location) changes.location = location;
  if (values.bandwidth !== before.bandwidth) changes.bandwidth = values.bandwidth;
  const total = Number(values.totalCount.trim());
  if (values.totalCount.trim() !== before.totalCount) changes.totalCount = total;
  if (values.status !== before.status) changes.status = values.status;
  return changes;
}
