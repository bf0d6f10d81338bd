import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { NEXT_CURSOR_HEADER } from '../../../../shared/constants';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { InstanceKind } from '../../../../shared/instance-kinds';
import { LISTINGS_KEY } from '../../../lib/query-keys';

export interface ListingFilters {
  /** Search text, or the chosen GPU type. */
  model: string;
  gpuType: string;
  sort: string;
  /** Only listings whose host runs this kind now; '' any kind. */
  kind: InstanceKind | '';
  /** The figures' filters (issue 42); null: none. */
  gpuCount?: number | null;
  minVramGb?: number | null;
  minReliability?: number | null;
  maxGpuHourPrice?: number | null;
  /** Listings a page; the server's default (50) when absent. */
  limit?: number;
}

const LISTINGS_URL = '/api/gpu-listings';

interface ListingsPage {
  listings: GpuListingView[];
  nextCursor: string | null;
}

function listingsUrl(filters: ListingFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.model) params.set('model', filters.model);
  if (filters.gpuType && filters.gpuType !== 'All GPU Types')
    params.set('gpuType', filters.gpuType);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.kind) params.set('kind', filters.kind);
  for (const key of ['gpuCount', 'minVramGb', 'minReliability', 'maxGpuHourPrice'] as const) {
    const value = filters[key];
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  if (filters.limit) params.set('limit', String(filters.limit));
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `${LISTINGS_URL}?${query}` : LISTINGS_URL;
}

export async function getListingsPage(
  filters: ListingFilters,
  cursor: string | null,
): Promise<ListingsPage> {
  const res = await fetch(listingsUrl(filters, cursor), { credentials: 'include' });
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  return {
    listings: (await res.json()) as GpuListingView[],
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER),
  };
}

export const listingsQueryOptions = (filters: ListingFilters) =>
  infiniteQueryOptions({
    queryKey: [...LISTINGS_KEY, filters],
    queryFn: ({ pageParam }) => getListingsPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export function useListings(filters: ListingFilters) {
  return useInfiniteQuery(listingsQueryOptions(filters));
}
