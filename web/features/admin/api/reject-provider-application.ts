import type {
  ProviderApplicationView,
  RejectApplicationBody,
} from '../../../../shared/contracts/provider-application';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { adminKeys } from './keys';

/** Rejects an application with a reason the applicant receives by e-mail. */
export const rejectProviderApplication = ({
  id,
  ...body
}: RejectApplicationBody & { id: string }) =>
  apiJson<ProviderApplicationView>(
    'POST',
    `/api/admin/provider-applications/${encodeURIComponent(id)}/reject`,
    body,
  );

export function useRejectProviderApplication() {
  return useRefreshingMutation(rejectProviderApplication, [adminKeys.providerApplications], {
    when: 'settled',
  });
}
