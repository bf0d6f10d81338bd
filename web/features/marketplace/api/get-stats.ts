import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATS_POLL_MS } from '../../../../shared/constants';
import type { MarketplaceStats } from '../../../../shared/contracts/listings';

export const STATS_KEY = ['/api/marketplace/stats'] as const;

/** Polled every 30 seconds. */
export const statsQueryOptions = () =>
  queryOptions<MarketplaceStats>({ queryKey: STATS_KEY, refetchInterval: STATS_POLL_MS });

export function useMarketplaceStats() {
  return useQuery(statsQueryOptions());
}
