import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateVmBody, VmInstanceView } from '../../../../shared/contracts/kvm';
import { apiRequest } from '../../../lib/api-client';
import { refreshAfterVmAction } from './invalidate';

export async function createVm(input: {
  body: CreateVmBody;
  idempotencyKey: string;
}): Promise<VmInstanceView> {
  const res = await apiRequest('POST', '/api/kvm/instances', input.body, {
    idempotencyKey: input.idempotencyKey,
  });
  return (await res.json()) as VmInstanceView;
}

export function useCreateVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVm,
    onSuccess: () => refreshAfterVmAction(queryClient, 'create'),
  });
}
