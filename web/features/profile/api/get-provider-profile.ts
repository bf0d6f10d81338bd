import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderView } from '../../../../shared/contracts/providers';
import { providerProfileKey } from '../../../lib/query-keys';

/**
 * The user's provider profile under the key the provider dashboard uses, fetched by the
 * default query function (GET /api/providers/user/{userId}). Only asked for users with a
 * provider profile.
 */
export function useProviderProfile(userId: string, enabled: boolean) {
  return useQuery(
    queryOptions<ProviderView | null>({ queryKey: providerProfileKey(userId), enabled }),
  );
}
