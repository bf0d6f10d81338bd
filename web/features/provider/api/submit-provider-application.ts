import type {
  ProviderApplicationInput,
  ProviderApplicationView,
} from '../../../../shared/contracts/provider-application';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { MY_APPLICATION_KEY } from './keys';

/** POST /api/providers with the full application (shared/contracts/provider-application.ts). */
export const submitProviderApplication = (body: ProviderApplicationInput) =>
  apiJson<ProviderApplicationView>('POST', '/api/providers', body);

export function useSubmitProviderApplication() {
  return useRefreshingMutation(submitProviderApplication, [MY_APPLICATION_KEY]);
}
