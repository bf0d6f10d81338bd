import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GpuOffering } from '../../../../shared/contracts/kvm';
import { VM_GPUS_KEY } from './keys';

/** GPU types to create a VM on (refreshed after a create or a terminate). */
export const vmGpusQueryOptions = (enabled: boolean) =>
  queryOptions<GpuOffering[]>({ queryKey: VM_GPUS_KEY, enabled });

export function useVmGpus(enabled: boolean) {
  return useQuery(vmGpusQueryOptions(enabled));
}
