import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeployGpuList } from '../../../../shared/contracts/deploy';

/** The GPU types on offer for Instant Deploy (the key is the URL the default fetcher reads). */
export const DEPLOY_GPUS_KEY = ['/api/deploy/gpus'] as const;

export const deployGpusQueryOptions = () =>
  queryOptions<DeployGpuList>({ queryKey: DEPLOY_GPUS_KEY });

export function useDeployGpus() {
  return useQuery(deployGpusQueryOptions());
}
