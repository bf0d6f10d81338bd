import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { vmActionKeys } from './invalidate';

export const stopVm = (id: number) =>
  apiJson<VmActionAnswer>('POST', `/api/kvm/instances/${id}/stop`);

export function useStopVm() {
  return useRefreshingMutation(stopVm, vmActionKeys('stop'));
}
