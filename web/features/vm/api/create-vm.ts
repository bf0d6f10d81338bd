import type { CreateVmBody, VmInstanceView } from '../../../../shared/contracts/kvm';
import { idempotentPost } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { vmActionKeys } from './invalidate';

export const createVm = idempotentPost<CreateVmBody, VmInstanceView>('/api/kvm/instances');

export function useCreateVm() {
  return useRefreshingMutation(createVm, vmActionKeys('create'));
}
