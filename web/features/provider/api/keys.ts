import { LISTINGS_KEY, providerProfileKey } from '../../../lib/query-keys';

/**
 * Query keys of the provider dashboard. Listings share the marketplace's '/api/gpu-listings'
 * prefix (web/lib/query-keys.ts), so invalidating it refreshes the marketplace and this page.
 */
export { LISTINGS_KEY, MARKETPLACE_STATS_KEY } from '../../../lib/query-keys';

export const providerKeys = {
  profile: providerProfileKey,
  listings: (providerId: number) => [...LISTINGS_KEY, { providerId }] as const,
  rentals: (providerId: number) => ['/api/rentals/provider', providerId] as const,
  hosts: ['/api/providers/hosts'] as const,
};

export const MY_APPLICATION_KEY = ['/api/provider-applications/mine'] as const;
