import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiRequest } from '../../../lib/api-client';
import { refreshAfterVmAction } from './invalidate';

export async function terminateVm(id: number): Promise<VmActionAnswer> {
  const res = await apiRequest('DELETE', `/api/kvm/instances/${id}`);
  return (await res.json()) as VmActionAnswer;
}

export function useTerminateVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: terminateVm,
    onSuccess: () => refreshAfterVmAction(queryClient, 'terminate'),
  });
}
