import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ProviderApplicationInput,
  ProviderApplicationView,
} from '../../../../shared/contracts/provider-application';
import { apiRequest } from '../../../lib/api-client';
import { MY_APPLICATION_KEY } from './keys';

/** POST /api/providers with the full application (shared/contracts/provider-application.ts). */
export async function submitProviderApplication(
  body: ProviderApplicationInput,
): Promise<ProviderApplicationView> {
  const res = await apiRequest('POST', '/api/providers', body);
  return (await res.json()) as ProviderApplicationView;
}

export function useSubmitProviderApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitProviderApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MY_APPLICATION_KEY }),
  });
}
