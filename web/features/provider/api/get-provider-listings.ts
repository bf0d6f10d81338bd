import { queryOptions, useQuery } from '@tanstack/react-query';
import { NEXT_CURSOR_HEADER } from '../../../../shared/constants';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

const PAGE_SIZE = 100;
/** A guard against a server that keeps answering with a cursor: 50 pages of 100 listings. */
const MAX_PAGES = 50;

/**
 * All of a provider's listings (including those in maintenance), following the
 * x-next-cursor header page by page.
 */
export async function getProviderListings(providerId: number): Promise<GpuListingView[]> {
  const listings: GpuListingView[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const params = new URLSearchParams({
      providerId: String(providerId),
      limit: String(PAGE_SIZE),
    });
    if (cursor) params.set('cursor', cursor);
    const res = await apiRequest('GET', `/api/gpu-listings?${params.toString()}`);
    listings.push(...((await res.json()) as GpuListingView[]));
    cursor = res.headers.get(NEXT_CURSOR_HEADER);
    if (!cursor) break;
  }
  return listings;
}

export const providerListingsQueryOptions = (providerId: number) =>
  queryOptions({
    queryKey: providerKeys.listings(providerId),
    queryFn: () => getProviderListings(providerId),
  });

export function useProviderListings(providerId: number) {
  return useQuery(providerListingsQueryOptions(providerId));
}
