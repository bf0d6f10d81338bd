import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateVmDeadlinesBody, VmInstanceView } from '../../../../shared/contracts/kvm';
import { apiRequest } from '../../../lib/api-client';
import { refreshAfterVmAction } from './invalidate';

/** Sets (a time) or clears (null) a VM's "stop at" and "terminate at". */
export async function setVmDeadlines(input: {
  id: number;
  body: UpdateVmDeadlinesBody;
}): Promise<VmInstanceView> {
  const res = await apiRequest('PATCH', `/api/kvm/instances/${input.id}`, input.body);
  return (await res.json()) as VmInstanceView;
}

export function useSetVmDeadlines() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setVmDeadlines,
    // The instance list (its card's countdown) and what it may cost are read again.
    onSuccess: () => refreshAfterVmAction(queryClient, 'stop'),
  });
}
