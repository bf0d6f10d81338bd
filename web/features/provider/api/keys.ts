/**
 * Query keys of the provider dashboard. Listings share the marketplace's '/api/gpu-listings'
 * prefix, so invalidating that prefix refreshes the marketplace and this page together.
 */
export const LISTINGS_KEY = ['/api/gpu-listings'] as const;
export const MARKETPLACE_STATS_KEY = ['/api/marketplace/stats'] as const;

export const providerKeys = {
  profile: (userId: string) => ['/api/providers/user', userId] as const,
  listings: (providerId: number) => [...LISTINGS_KEY, { providerId }] as const,
  rentals: (providerId: number) => ['/api/rentals/provider', providerId] as const,
  hosts: ['/api/providers/hosts'] as const,
};

export const MY_APPLICATION_KEY = ['/api/provider-applications/mine'] as const;
