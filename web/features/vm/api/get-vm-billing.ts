import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingSummary } from '../../../../shared/contracts/kvm';
import { VM_BILLING_KEY } from './keys';

/** What the user's VMs have cost (refreshed with the instance list). */
export const vmBillingQueryOptions = (enabled: boolean) =>
  queryOptions<BillingSummary>({ queryKey: VM_BILLING_KEY, enabled });

export function useVmBilling(enabled: boolean) {
  return useQuery(vmBillingQueryOptions(enabled));
}
