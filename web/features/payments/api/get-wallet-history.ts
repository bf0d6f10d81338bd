import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  HistoryFilter,
  HistoryMinute,
  HistoryPage,
} from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';

/** The prefix of every history query (one per filter): invalidating it refreshes them all. */
export const WALLET_HISTORY_KEY = ['/api/payments/history'] as const;

/** Lines per page of the credit history. */
export const HISTORY_PAGE_SIZE = 25;

export async function getWalletHistory(
  filter: HistoryFilter,
  cursor: string | null,
): Promise<HistoryPage> {
  const query = new URLSearchParams({ type: filter, limit: String(HISTORY_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  const res = await apiRequest('GET', `${WALLET_HISTORY_KEY[0]}?${query}`);
  return (await res.json()) as HistoryPage;
}

/** The history newest first, a page at a time (keyset pages: the server's cursor). */
export function useWalletHistory(filter: HistoryFilter) {
  return useInfiniteQuery({
    queryKey: [...WALLET_HISTORY_KEY, filter],
    queryFn: ({ pageParam }) => getWalletHistory(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The minute charges behind one usage line, fetched when it is expanded. */
export function useHistoryMinutes(usage: { instanceId: number; day: string }, enabled: boolean) {
  return useQuery({
    queryKey: [...WALLET_HISTORY_KEY, 'minutes', usage.instanceId, usage.day],
    enabled,
    queryFn: async () => {
      const query = new URLSearchParams({ instanceId: String(usage.instanceId), day: usage.day });
      const res = await apiRequest('GET', `${WALLET_HISTORY_KEY[0]}/minutes?${query}`);
      return ((await res.json()) as { minutes: HistoryMinute[] }).minutes;
    },
  });
}

/** Where the whole history (one filter) downloads as CSV. */
export function historyExportUrl(filter: HistoryFilter): string {
  return `${WALLET_HISTORY_KEY[0]}/export?type=${filter}`;
}
