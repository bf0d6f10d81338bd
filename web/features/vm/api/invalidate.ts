import type { QueryKey } from '@tanstack/react-query';
import { CHARGE_LIMITS_KEY, CURRENT_USER_KEY } from '../../../lib/query-keys';
import { VM_BILLING_KEY, VM_GPUS_KEY, VM_INSTANCES_KEY, VM_TEMPLATES_KEY } from './keys';

/**
 * What a VM action refreshes: the instance list, with the billing card and the balance it
 * draws on; after a create or a terminate the GPU list too.
 */
export function vmActionKeys(action: 'create' | 'start' | 'stop' | 'terminate'): QueryKey[] {
  const keys: QueryKey[] = [VM_INSTANCES_KEY, VM_BILLING_KEY, CURRENT_USER_KEY, CHARGE_LIMITS_KEY];
  if (action === 'create' || action === 'terminate') keys.push(VM_GPUS_KEY, VM_TEMPLATES_KEY);
  return keys;
}
