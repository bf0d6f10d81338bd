import { z } from 'zod';
import { CURRENCIES } from '../rules/currency';
import { IDLE_THRESHOLD_DEFAULT_PERCENT } from '../rules/idle-stop';
import { CAP_MAX_DOLLARS, CAP_PATTERN } from '../rules/spend-caps';
import { THEMES } from '../rules/theme';
import { idleMinutes, idleThreshold } from './idle-stop';

/** The settings' option lists and defaults (docs/rules.md, Business constants). */
export const TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/London',
  'Asia/Tokyo',
  'Asia/Kolkata',
] as const;
export const REGIONS = ['us-east', 'us-west', 'eu-central', 'asia-pacific', 'india'] as const;
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'ja', 'hi'] as const;
export const SESSION_TIMEOUTS = ['1h', '8h', '24h', '7d', 'never'] as const;
export const KEY_ROTATIONS = ['manual', '30d', '90d', '1y'] as const;

export type TimeZone = (typeof TIMEZONES)[number];
export type Region = (typeof REGIONS)[number];
export type Language = (typeof LANGUAGES)[number];
export type SessionTimeout = (typeof SESSION_TIMEOUTS)[number];
export type KeyRotation = (typeof KEY_ROTATIONS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long a session lives from sign-in. 'never' is 400 days: browsers cap a cookie's
 * lifetime at about that anyway, so a longer one would be a promise we cannot keep.
 */
export const SESSION_TIMEOUT_MS: Record<SessionTimeout, number> = {
  '1h': HOUR_MS,
  '8h': 8 * HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  never: 400 * DAY_MS,
};

/** After how long an API key stops working under each rotation policy (null: never). */
export const KEY_ROTATION_MS: Record<KeyRotation, number | null> = {
  manual: null,
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  '1y': 365 * DAY_MS,
};

export const SESSION_TIMEOUT_LABELS: Record<SessionTimeout, string> = {
  '1h': '1 hour',
  '8h': '8 hours',
  '24h': '24 hours',
  '7d': '7 days',
  never: 'Never (400 days)',
};

export const KEY_ROTATION_LABELS: Record<KeyRotation, string> = {
  manual: 'Manual',
  '30d': 'Every 30 days',
  '90d': 'Every 90 days',
  '1y': 'Every year',
};

export const REGION_LABELS: Record<Region, string> = {
  'us-east': 'US East',
  'us-west': 'US West',
  'eu-central': 'EU Central',
  'asia-pacific': 'Asia Pacific',
  india: 'India',
};

export const LANGUAGE_LABELS: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  ja: '日本語',
  hi: 'हिन्दी',
};

const notificationsSchema = z.object({
  email: z.boolean(),
  push: z.boolean(),
  sms: z.boolean(),
  instanceAlerts: z.boolean(),
  paymentAlerts: z.boolean(),
  marketingEmails: z.boolean(),
});

const securitySchema = z.object({
  twoFactorEnabled: z.boolean(),
  sessionTimeout: z.enum(SESSION_TIMEOUTS),
  apiKeyRotation: z.enum(KEY_ROTATIONS),
});

const preferencesSchema = z.object({
  currency: z.enum(CURRENCIES),
  timezone: z.enum(TIMEZONES),
  language: z.enum(LANGUAGES),
  theme: z.enum(THEMES),
  autoRenew: z.boolean(),
  defaultRegion: z.enum(REGIONS),
});

/** Dollars with at most two decimals, from 0 to 100,000. */
const thresholdDollars = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, { message: 'Enter an amount in dollars, e.g. 10.00' })
  .refine((v) => Number(v) <= 100_000, { message: 'At most 100000' });

/** A spend cap in dollars: more than 0, at most two decimals; null is no cap. */
export const spendCapDollars = z
  .string()
  .trim()
  .regex(CAP_PATTERN, { message: 'Enter an amount in dollars, e.g. 50.00' })
  .refine((v) => Number(v) > 0, { message: 'Must be more than 0' })
  .refine((v) => Number(v) <= CAP_MAX_DOLLARS, { message: `At most ${CAP_MAX_DOLLARS}` });

const billingSchema = z.object({
  /**
   * Warn when the wallet falls below this many dollars; null: one hour of what the user's
   * running instances cost now (the worker checks it, docs/decisions/007).
   */
  lowBalanceThreshold: thresholdDollars.nullable(),
  /**
   * Spend caps of the whole account per UTC day and calendar month (null: none): a charge
   * that would cross one stops running metered instances and refuses new launches (402).
   */
  dailySpendCap: spendCapDollars.nullable().default(null),
  monthlySpendCap: spendCapDollars.nullable().default(null),
  /**
   * Idle stop for new metered instances that do not name their own (docs/decisions/019):
   * minutes of GPU use under the threshold with no SSH or web console session (0: off), and the threshold.
   */
  idleStopMinutes: idleMinutes('idleStopMinutes').default(0),
  idleThresholdPercent: idleThreshold('idleThresholdPercent').default(
    IDLE_THRESHOLD_DEFAULT_PERCENT,
  ),
});

const DEFAULT_BILLING = {
  lowBalanceThreshold: null,
  dailySpendCap: null,
  monthlySpendCap: null,
  idleStopMinutes: 0,
  idleThresholdPercent: IDLE_THRESHOLD_DEFAULT_PERCENT,
};

/** The whole settings object, as PATCH /api/users/:id/settings takes it. */
export const userSettings = z.object({
  notifications: notificationsSchema,
  security: securitySchema,
  preferences: preferencesSchema,
  /** Optional in a request (older clients): missing means the default. */
  billing: billingSchema.default(DEFAULT_BILLING),
});
export type UserSettings = z.infer<typeof userSettings>;

export const DEFAULT_SETTINGS: UserSettings = {
  notifications: {
    email: true,
    push: false,
    sms: false,
    instanceAlerts: true,
    paymentAlerts: true,
    marketingEmails: false,
  },
  security: { twoFactorEnabled: false, sessionTimeout: '24h', apiKeyRotation: 'manual' },
  preferences: {
    currency: 'USD',
    timezone: 'UTC',
    language: 'en',
    theme: 'dark',
    autoRenew: false,
    defaultRegion: 'us-east',
  },
  billing: DEFAULT_BILLING,
};

/**
 * Stored settings with every missing or invalid value replaced by its default, so an old
 * or partial row still reads as a whole, valid object.
 */
export function resolveSettings(stored: unknown): UserSettings {
  const source = isRecord(stored) ? stored : {};
  const group = <K extends keyof UserSettings>(key: K): UserSettings[K] => {
    const defaults = DEFAULT_SETTINGS[key];
    const raw = isRecord(source[key]) ? source[key] : {};
    const shape = GROUPS[key].shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = { ...defaults };
    for (const [field, schema] of Object.entries(shape)) {
      const parsed = schema.safeParse(raw[field]);
      if (parsed.success) out[field] = parsed.data;
    }
    return out as UserSettings[K];
  };
  return {
    notifications: group('notifications'),
    security: group('security'),
    preferences: group('preferences'),
    billing: group('billing'),
  };
}

const GROUPS = {
  notifications: notificationsSchema,
  security: securitySchema,
  preferences: preferencesSchema,
  billing: billingSchema,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
