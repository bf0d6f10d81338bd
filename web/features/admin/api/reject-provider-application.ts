import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ProviderApplicationView,
  RejectApplicationBody,
} from '../../../../shared/contracts/provider-application';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** Rejects an application with a reason the applicant receives by e-mail. */
export async function rejectProviderApplication({
  id,
  ...body
}: RejectApplicationBody & { id: string }): Promise<ProviderApplicationView> {
  const res = await apiRequest(
    'POST',
    `/api/admin/provider-applications/${encodeURIComponent(id)}/reject`,
    body,
  );
  return (await res.json()) as ProviderApplicationView;
}

export function useRejectProviderApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectProviderApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.providerApplications }),
  });
}
