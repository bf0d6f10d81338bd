import type { VmActionAnswer } from '../../../../shared/contracts/kvm';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { vmActionKeys } from './invalidate';

export const startVm = (id: number) =>
  apiJson<VmActionAnswer>('POST', `/api/kvm/instances/${id}/start`);

export function useStartVm() {
  return useRefreshingMutation(startVm, vmActionKeys('start'));
}
