import type { UpdateVmDeadlinesBody, VmInstanceView } from '../../../../shared/contracts/kvm';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { vmActionKeys } from './invalidate';

/** Sets (a time) or clears (null) a VM's "stop at" and "terminate at". */
export const setVmDeadlines = ({ id, body }: { id: number; body: UpdateVmDeadlinesBody }) =>
  apiJson<VmInstanceView>('PATCH', `/api/kvm/instances/${id}`, body);

export function useSetVmDeadlines() {
  // The instance list (its card's countdown) and what it may cost are read again.
  return useRefreshingMutation(setVmDeadlines, vmActionKeys('stop'));
}
