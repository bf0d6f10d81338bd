import type { ProviderApplicationView } from '../../../../shared/contracts/provider-application';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { adminKeys } from './keys';

/** Approves an application: the applicant gets their provider profile and an e-mail. */
export const approveProviderApplication = (id: string) =>
  apiJson<ProviderApplicationView>(
    'POST',
    `/api/admin/provider-applications/${encodeURIComponent(id)}/approve`,
  );

export function useApproveProviderApplication() {
  return useRefreshingMutation(approveProviderApplication, [adminKeys.providerApplications], {
    when: 'settled',
  });
}
