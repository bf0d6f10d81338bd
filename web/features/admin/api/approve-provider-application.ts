import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderApplicationView } from '../../../../shared/contracts/provider-application';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** Approves an application: the applicant gets their provider profile and an e-mail. */
export async function approveProviderApplication(id: string): Promise<ProviderApplicationView> {
  const res = await apiRequest(
    'POST',
    `/api/admin/provider-applications/${encodeURIComponent(id)}/approve`,
  );
  return (await res.json()) as ProviderApplicationView;
}

export function useApproveProviderApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveProviderApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.providerApplications }),
  });
}
