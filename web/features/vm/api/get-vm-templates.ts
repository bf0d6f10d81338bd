import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VmTemplateOption } from '../../../../shared/contracts/kvm';
import { VM_TEMPLATES_KEY } from './keys';

/** The OS templates, each saying whether a host can run it now and, if not, why. */
export const vmTemplatesQueryOptions = (enabled: boolean) =>
  queryOptions<VmTemplateOption[]>({ queryKey: VM_TEMPLATES_KEY, enabled });

export function useVmTemplates(enabled: boolean) {
  return useQuery(vmTemplatesQueryOptions(enabled));
}
