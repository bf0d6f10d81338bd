import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeployRequestBody, DeployResultView } from '../../../../shared/contracts/deploy';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY, LISTINGS_KEY, MARKETPLACE_STATS_KEY } from '../../../lib/query-keys';
import { DEPLOY_GPUS_KEY } from './get-deploy-gpus';

/** One deploy attempt; a retry of it carries the same Idempotency-Key, so it creates one instance. */
export async function createDeployment({
  body,
  idempotencyKey,
}: {
  body: DeployRequestBody;
  idempotencyKey: string;
}): Promise<DeployResultView> {
  const res = await apiRequest('POST', '/api/deploy', body, { idempotencyKey });
  return (await res.json()) as DeployResultView;
}

/** A deploy takes a GPU and will charge the wallet: the GPU list, listings and balance refresh. */
export function useCreateDeployment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeployment,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: DEPLOY_GPUS_KEY }),
        queryClient.invalidateQueries({ queryKey: LISTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_STATS_KEY }),
        queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
      ]);
    },
  });
}
