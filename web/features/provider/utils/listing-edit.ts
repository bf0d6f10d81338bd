import type { GpuListingView } from '../../../../shared/contracts/listings';
import { sameDollars } from '../../../../shared/rules/pricing';
import type { UpdateListingChanges } from '../api/update-listing';

export interface EditListingValues {
  hourlyRate: string;
  location: string;
  bandwidth: string;
  totalCount: string;
  status: 'available' | 'maintenance';
  /** A host id, '' for no host, or KEEP_HOST while the listing's host is not known here. */
  hostId: string;
}

/** The Host select's "leave it as it is" choice, for a listing view that does not name its host. */
export const KEEP_HOST = '__keep__';

/** The listing's host id ('' for none), or KEEP_HOST when the view does not carry it. */
export function hostIdOf(listing: GpuListingView & { hostId?: string | null }): string {
  return listing.hostId === undefined ? KEEP_HOST : (listing.hostId ?? '');
}

export function editValuesOf(listing: GpuListingView): EditListingValues {
  return {
    hourlyRate: listing.hourlyRate,
    location: listing.location,
    bandwidth: listing.bandwidth,
    totalCount: String(listing.totalCount),
    status: listing.status === 'maintenance' ? 'maintenance' : 'available',
    hostId: hostIdOf(listing),
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
  if (values.hostId !== before.hostId && values.hostId !== KEEP_HOST)
    changes.hostId = values.hostId === '' ? null : values.hostId;
  return changes;
}
