import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiRequest } from '../../../lib/api-client';
import { refreshAfterVmAction } from './invalidate';

export async function stopVm(id: number): Promise<VmActionAnswer> {
  const res = await apiRequest('POST', `/api/kvm/instances/${id}/stop`);
  return (await res.json()) as VmActionAnswer;
}

export function useStopVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopVm,
    onSuccess: () => refreshAfterVmAction(queryClient, 'stop'),
  });
}
