import type { GpuListingView } from '../../../shared/contracts/listings';
import { microsToDollars } from '../../../shared/rules/money';
import type { ListingRow } from './repo';

/** `uptime`: the listing's host's uptime score (null for demo listings and new hosts). */
export function presentListing(
  { listing, provider, hostStatus }: ListingRow,
  uptime: ReadonlyMap<string, number | null> = new Map(),
): GpuListingView {
  const specs = listing.specifications ?? {};
  return {
    id: listing.id,
    providerId: listing.providerId,
    model: listing.model,
    memory: listing.memory,
    cudaCores: listing.cudaCores,
    tensorCores: listing.tensorCores,
    location: listing.location,
    bandwidth: listing.bandwidth,
    hourlyRate: microsToDollars(listing.hourlyRateMicros),
    dailyRate: microsToDollars(listing.hourlyRateMicros * 24n),
    status: listing.status as GpuListingView['status'],
    availableCount: listing.availableCount,
    totalCount: listing.totalCount,
    specifications: JSON.stringify({ bandwidth: listing.bandwidth, ...specs }),
    isDemoHost: listing.isDemoHost,
    hostStatus,
    hostId: listing.hostId,
    hostUptimePercent: listing.hostId ? (uptime.get(listing.hostId) ?? null) : null,
    provider: {
      id: provider.id,
      companyName: provider.companyName,
      location: provider.location,
      isVerified: provider.isVerified,
      reputation: provider.reputation,
    },
  };
}
