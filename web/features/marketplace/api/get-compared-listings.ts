import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { LISTINGS_KEY } from '../../../lib/query-keys';
import { getListingsPage } from './get-listings';

/** The most pages read looking for the compared listings (100 listings a page). */
const MAX_PAGES = 10;

export interface ComparedListings {
  /** The listings found, in the order of the ids asked for. */
  listings: GpuListingView[];
  /** Ids the marketplace does not hold (removed, or never there). */
  missing: number[];
}

/**
 * The marketplace's listings with some ids, read from its own list (what the renter sees there,
 * their sandbox listings included), page by page until each is found or the list ends.
 */
export async function getComparedListings(ids: readonly number[]): Promise<ComparedListings> {
  const found = new Map<number, GpuListingView>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { listings, nextCursor } = await getListingsPage(
      { model: '', gpuType: '', sort: '', kind: '', limit: 100 },
      cursor,
    );
    for (const listing of listings) if (ids.includes(listing.id)) found.set(listing.id, listing);
    if (found.size === ids.length || !nextCursor) break;
    cursor = nextCursor;
  }
  return {
    listings: ids.flatMap((id) => found.get(id) ?? []),
    missing: ids.filter((id) => !found.has(id)),
  };
}

/** Under the listings' key, so a rent (which refreshes the listings) refreshes these too. */
export const comparedListingsQueryOptions = (ids: readonly number[]) =>
  queryOptions({
    queryKey: [...LISTINGS_KEY, 'compare', ids.join(',')],
    queryFn: () => getComparedListings(ids),
    enabled: ids.length > 0,
  });

export function useComparedListings(ids: readonly number[]) {
  return useQuery(comparedListingsQueryOptions(ids));
}
