import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeploymentStatusView } from '../../../../shared/contracts/deploy';

/** While the instance is changing state its status is asked for this often. */
export const DEPLOYMENT_POLL_MS = 2_000;

const SETTLING = new Set(['provisioning', 'starting', 'stopping', 'terminating']);

export const deploymentKey = (id: number) => ['/api/deploy', String(id)] as const;

/** A deployment's live status, polled until it stops changing (running, stopped, ended). */
export const deploymentQueryOptions = (id: number, initial?: DeploymentStatusView) =>
  queryOptions<DeploymentStatusView>({
    queryKey: deploymentKey(id),
    ...(initial ? { initialData: initial, initialDataUpdatedAt: Date.now() } : {}),
    refetchInterval: (query) =>
      query.state.data && SETTLING.has(query.state.data.deployment.status)
        ? DEPLOYMENT_POLL_MS
        : false,
  });

export function useDeployment(id: number, initial?: DeploymentStatusView) {
  return useQuery(deploymentQueryOptions(id, initial));
}
