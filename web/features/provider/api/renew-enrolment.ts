import type { CreateHostResponse } from '../../../../shared/contracts/hosts';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { providerKeys } from './keys';

/** A new enrolment token for a host awaiting enrolment; the previous one stops working. */
export const renewEnrolment = (hostId: string) =>
  apiJson<CreateHostResponse>(
    'POST',
    `/api/providers/hosts/${encodeURIComponent(hostId)}/enrolment`,
  );

export function useRenewEnrolment() {
  return useRefreshingMutation(renewEnrolment, [providerKeys.hosts]);
}
