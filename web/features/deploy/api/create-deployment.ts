import type { DeployRequestBody, DeployResultView } from '../../../../shared/contracts/deploy';
import { idempotentPost } from '../../../lib/api-client';
import {
  CHARGE_LIMITS_KEY,
  CURRENT_USER_KEY,
  LISTINGS_KEY,
  MARKETPLACE_STATS_KEY,
} from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { DEPLOY_GPUS_KEY } from './get-deploy-gpus';

/** One deploy attempt; a retry of it carries the same Idempotency-Key, so it creates one instance. */
export const createDeployment = idempotentPost<DeployRequestBody, DeployResultView>('/api/deploy');

/** A deploy takes a GPU and will charge the wallet: the GPU list, listings and balance refresh. */
export function useCreateDeployment() {
  return useRefreshingMutation(createDeployment, [
    DEPLOY_GPUS_KEY,
    LISTINGS_KEY,
    MARKETPLACE_STATS_KEY,
    CURRENT_USER_KEY,
    CHARGE_LIMITS_KEY,
  ]);
}
