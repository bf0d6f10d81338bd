import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATS_POLL_MS } from '../../../../shared/constants';
import type { MarketplaceStats } from '../../../../shared/contracts/listings';
import { MARKETPLACE_STATS_KEY } from '../../../lib/query-keys';

/** Polled every 30 seconds. */
export const statsQueryOptions = () =>
  queryOptions<MarketplaceStats>({
    queryKey: MARKETPLACE_STATS_KEY,
    refetchInterval: STATS_POLL_MS,
  });

export function useMarketplaceStats() {
  return useQuery(statsQueryOptions());
}
