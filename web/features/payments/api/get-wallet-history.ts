import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WalletEntry } from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';

export const WALLET_HISTORY_KEY = ['/api/payments/history'] as const;

export async function getWalletHistory(): Promise<WalletEntry[]> {
  const res = await apiRequest('GET', WALLET_HISTORY_KEY[0]);
  return (await res.json()) as WalletEntry[];
}

export const walletHistoryQueryOptions = () =>
  queryOptions({ queryKey: WALLET_HISTORY_KEY, queryFn: getWalletHistory });

export function useWalletHistory() {
  return useQuery(walletHistoryQueryOptions());
}
