import { eq } from 'drizzle-orm';
import type { ListingHostStatus } from '../../../shared/contracts/listings';
import { isRentable } from '../../../shared/rules/pricing';
import type { Conn } from '../../db/client';
import { gpuListings, providers } from '../../db/schema';
import { hostStatusOfListing, sellableUnitsSql } from './listing-sql';
import { OFFER_ORDER, offeredTo } from './repo';

/** A listing as the GPU-type offerings see it. */
export interface OfferedListing {
  id: number;
  model: string;
  memoryGb: number;
  hourlyRateMicros: bigint;
  hostId: string | null;
  hostStatus: ListingHostStatus;
  rentable: boolean;
}

/** Per GPU type (a listing's model): its listings, the rentable ones first, cheapest first. */
export interface GpuOffering {
  model: string;
  memoryGb: number;
  listings: OfferedListing[];
  /** The listing a new instance of this type would take (the cheapest rentable), if any. */
  pick: OfferedListing | null;
}

/**
 * The GPU types on offer to a viewer, from the marketplace's listings (not removed, available
 * or rented, public or the viewer's own sandbox), with rentability by the one shared rule.
 */
export async function gpuOfferings(
  conn: Conn,
  viewerSandboxId: number | undefined,
  model?: string,
): Promise<GpuOffering[]> {
  const rows = await conn
    .select({
      id: gpuListings.id,
      model: gpuListings.model,
      memoryGb: gpuListings.memoryGb,
      hourlyRateMicros: gpuListings.hourlyRateMicros,
      status: gpuListings.status,
      availableCount: sellableUnitsSql,
      hostId: gpuListings.hostId,
      hostStatus: hostStatusOfListing,
    })
    .from(gpuListings)
    .innerJoin(providers, eq(providers.id, gpuListings.providerId))
    .where(offeredTo(viewerSandboxId, model))
    .orderBy(...OFFER_ORDER);
  const byModel = new Map<string, GpuOffering>();
  for (const row of rows) {
    const listing: OfferedListing = {
      id: row.id,
      model: row.model,
      memoryGb: row.memoryGb,
      hourlyRateMicros: row.hourlyRateMicros,
      hostId: row.hostId,
      hostStatus: row.hostStatus,
      rentable: isRentable(row),
    };
    const offering = byModel.get(row.model) ?? {
      model: row.model,
      memoryGb: row.memoryGb,
      listings: [],
      pick: null,
    };
    offering.listings.push(listing);
    if (listing.rentable && offering.pick === null) offering.pick = listing;
    byModel.set(row.model, offering);
  }
  for (const offering of byModel.values()) {
    offering.listings.sort((a, b) => Number(b.rentable) - Number(a.rentable));
  }
  return [...byModel.values()];
}
