import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { vmActionKeys } from './invalidate';

export const terminateVm = (id: number) =>
  apiJson<VmActionAnswer>('DELETE', `/api/kvm/instances/${id}`);

export function useTerminateVm() {
  return useRefreshingMutation(terminateVm, vmActionKeys('terminate'));
}
