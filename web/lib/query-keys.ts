/** Query keys more than one feature touches (a feature never imports another feature). */
export const CURRENT_USER_KEY = ['/api/auth/user'] as const;

/**
 * Listings: the marketplace's pages and the provider dashboard's list share this prefix, so
 * invalidating it refreshes both.
 */
export const LISTINGS_KEY = ['/api/gpu-listings'] as const;
export const MARKETPLACE_STATS_KEY = ['/api/marketplace/stats'] as const;

/**
 * A user's rentals (the dashboard and the profile's rentals). The key is also the URL the
 * default query function fetches (/api/rentals/user/{userId}); the prefix covers every user.
 */
export const USER_RENTALS_KEY = ['/api/rentals/user'] as const;
export const userRentalsKey = (userId: string) => [...USER_RENTALS_KEY, userId] as const;

/** A user's provider profile (the profile's provider tab and the provider dashboard). */
export const providerProfileKey = (userId: string) => ['/api/providers/user', userId] as const;

/**
 * The balance and spend caps the launch screens set a launch against (GET
 * /api/payments/limits): refreshed by every launch and purchase.
 */
export const CHARGE_LIMITS_KEY = ['/api/payments/limits'] as const;
