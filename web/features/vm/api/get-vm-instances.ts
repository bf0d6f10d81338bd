import { queryOptions, useQuery } from '@tanstack/react-query';
import { VM_POLL_MS, type VmInstanceView } from '../../../../shared/contracts/kvm';
import { VM_INSTANCES_KEY } from './keys';

/** The user's VMs, polled every 30 s (spec part 2 section 9); only fetched when signed in. */
export const vmInstancesQueryOptions = (enabled: boolean) =>
  queryOptions<VmInstanceView[]>({
    queryKey: VM_INSTANCES_KEY,
    enabled,
    refetchInterval: VM_POLL_MS,
  });

export function useVmInstances(enabled: boolean) {
  return useQuery(vmInstancesQueryOptions(enabled));
}
