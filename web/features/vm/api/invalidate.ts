import type { QueryClient } from '@tanstack/react-query';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { VM_BILLING_KEY, VM_GPUS_KEY, VM_INSTANCES_KEY, VM_TEMPLATES_KEY } from './keys';

/**
 * After a VM action the instance list is refreshed, with the billing
 * card and the balance it draws on; after a create or a terminate the GPU list too.
 */
export async function refreshAfterVmAction(
  queryClient: QueryClient,
  action: 'create' | 'start' | 'stop' | 'terminate',
): Promise<void> {
  const keys: (readonly string[])[] = [VM_INSTANCES_KEY, VM_BILLING_KEY, CURRENT_USER_KEY];
  if (action === 'create' || action === 'terminate') keys.push(VM_GPUS_KEY, VM_TEMPLATES_KEY);
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
