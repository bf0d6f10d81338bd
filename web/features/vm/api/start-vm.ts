import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiRequest } from '../../../lib/api-client';
import { refreshAfterVmAction } from './invalidate';

export async function startVm(id: number): Promise<VmActionAnswer> {
  const res = await apiRequest('POST', `/api/kvm/instances/${id}/start`);
  return (await res.json()) as VmActionAnswer;
}

export function useStartVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startVm,
    onSuccess: () => refreshAfterVmAction(queryClient, 'start'),
  });
}
