import { z } from 'zod';
import { TEXT_LIMITS } from './limits';
import { uuidIdParam } from './params';
import { spendCapDollars } from './settings';

export const API_KEY_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** Public API rate tiers, requests per hour (docs/decisions/012). */
export const RATE_TIERS = { standard: 1_000, pro: 5_000, enterprise: 25_000 } as const;
export type RateTier = keyof typeof RATE_TIERS;

export const MAX_API_KEYS = 20;
/** Every key starts with this, so a leaked key is easy to recognise and scan for. */
export const API_KEY_PREFIX = 'rgpu_';

export const createApiKeyBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Give the key a name' })
    .max(TEXT_LIMITS.keyName, {
      message: `Name must be at most ${TEXT_LIMITS.keyName} characters`,
    }),
  permissions: z
    .array(z.enum(API_KEY_PERMISSIONS))
    .min(1, { message: 'Choose at least one permission' })
    .default(['read'])
    .transform((list) => API_KEY_PERMISSIONS.filter((p) => list.includes(p))),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

export const apiKeyIdParam = uuidIdParam('Not a key id');

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to recognise it; the rest is never stored. */
  prefix: z.string(),
  permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
  rateTier: z.enum(Object.keys(RATE_TIERS) as [RateTier, ...RateTier[]]),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** When the rotation policy retires it; null under manual rotation. */
  expiresAt: z.string().nullable(),
  /** Spend caps of what this key launches, in dollars per UTC day and calendar month (null: none). */
  dailySpendCap: z.string().nullable(),
  monthlySpendCap: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** The answer to POST /api/auth/api-keys: the only time the full key is shown. */
export const createdApiKey = apiKeyView.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** PUT …/api-keys/:id/caps: a key's daily and monthly spend caps in dollars (null: none). */
export const apiKeyCapsBody = z.object({
  dailySpendCap: spendCapDollars.nullable(),
  monthlySpendCap: spendCapDollars.nullable(),
});
export type ApiKeyCapsBody = z.infer<typeof apiKeyCapsBody>;
