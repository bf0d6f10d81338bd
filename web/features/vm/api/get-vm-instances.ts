import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import { isTransitional } from '../../../../shared/rules/instance-lifecycle';
import { VM_POLL_MS } from '../../../../shared/vm-options';
import { VM_INSTANCES_KEY } from './keys';

/** While a VM is on its way to another state, the list follows it this often. */
export const VM_TRANSITION_POLL_MS = 5_000;

/**
 * The user's VMs, polled every 30 s; only fetched when signed in.
 * While one is provisioning, starting, stopping or terminating the list is polled every
 * 5 s, so the card shows where it arrived (and its Start or Stop button) without waiting
 * half a minute.
 */
export const vmInstancesQueryOptions = (enabled: boolean) =>
  queryOptions<VmInstanceView[]>({
    queryKey: VM_INSTANCES_KEY,
    enabled,
    refetchInterval: (query) =>
      query.state.data?.some((vm) => isTransitional(vm.state)) ? VM_TRANSITION_POLL_MS : VM_POLL_MS,
  });

export function useVmInstances(enabled: boolean) {
  return useQuery(vmInstancesQueryOptions(enabled));
}
