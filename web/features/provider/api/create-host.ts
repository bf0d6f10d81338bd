import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateHostBody, CreateHostResponse } from '../../../../shared/contracts/hosts';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** Adds a host; the answer carries its one-time enrolment token (shown once). */
export async function createHost(body: CreateHostBody): Promise<CreateHostResponse> {
  const res = await apiRequest('POST', '/api/providers/hosts', body);
  return (await res.json()) as CreateHostResponse;
}

export function useCreateHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createHost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.hosts }),
  });
}
