import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SpendingSummary } from '../../../../shared/contracts/payments';
import { apiJson } from '../../../lib/api-client';

export const SPENDING_SUMMARY_KEY = ['/api/payments/summary'] as const;

export function getSpendingSummary(): Promise<SpendingSummary> {
  return apiJson<SpendingSummary>('GET', SPENDING_SUMMARY_KEY[0]);
}

/** Refetched on mount: the figures move with every rental and purchase. */
export const spendingSummaryQueryOptions = () =>
  queryOptions({
    queryKey: SPENDING_SUMMARY_KEY,
    queryFn: getSpendingSummary,
    staleTime: 0,
  });

export function useSpendingSummary() {
  return useQuery(spendingSummaryQueryOptions());
}
