import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateHostResponse } from '../../../../shared/contracts/hosts';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** A new enrolment token for a host awaiting enrolment; the previous one stops working. */
export async function renewEnrolment(hostId: string): Promise<CreateHostResponse> {
  const res = await apiRequest(
    'POST',
    `/api/providers/hosts/${encodeURIComponent(hostId)}/enrolment`,
  );
  return (await res.json()) as CreateHostResponse;
}

export function useRenewEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewEnrolment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.hosts }),
  });
}
