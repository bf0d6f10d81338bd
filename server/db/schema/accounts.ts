import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    theme: text('theme').notNull().default('dark'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isDemo: boolean('is_demo').notNull().default(false),
    /** The settings object (shared/contracts/settings.ts); missing keys take its defaults. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    phone: text('phone'),
    location: text('location'),
    bio: text('bio'),
    company: text('company'),
    website: text('website'),
    /**
     * A new address the owner asked for but has not proved yet (a code went there). Sign-in
     * never matches it; confirming the code moves it to email.
     */
    pendingEmail: text('pending_email'),
    /** Set when the account is closed: personal data is cleared, financial records stay. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    // The demo cleanup's search: live demo accounts by age.
    index('users_demo_created_idx')
      .on(t.createdAt)
      .where(sql`${t.isDemo} and ${t.deletedAt} is null`),
    check('users_theme_check', sql`${t.theme} in ('dark', 'light', 'pastel')`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_pending_email_lower_check', sql`${t.pendingEmail} = lower(${t.pendingEmail})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The address the code was sent to. */
    email: text('email').notNull(),
    /** 'sign-in' (keyed by address) or 'email-change' (keyed by the asking user). */
    purpose: text('purpose').notNull().default('sign-in'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    requestedIp: text('requested_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('otp_codes_email_idx').on(t.email, t.createdAt),
    index('otp_codes_user_idx').on(t.userId, t.createdAt),
    check('otp_codes_attempts_check', sql`${t.attempts} >= 0`),
    check(
      'otp_codes_purpose_check',
      sql`(${t.purpose} = 'sign-in' and ${t.userId} is null) or (${t.purpose} = 'email-change' and ${t.userId} is not null)`,
    ),
  ],
);

/**
 * API keys (docs/decisions/012): only a SHA-256 of the key is stored, with a visible
 * prefix to recognise it. Revoking sets revoked_at; a revoked or expired key never matches.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    permissions: text('permissions').array().notNull(),
    rateTier: text('rate_tier').notNull().default('standard'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Spend caps of what this key launches (null: none), per UTC day and calendar month. */
    dailyCapMicros: bigint('daily_cap_micros', { mode: 'bigint' }),
    monthlyCapMicros: bigint('monthly_cap_micros', { mode: 'bigint' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_user_idx').on(t.userId),
    check(
      'api_keys_caps_positive',
      sql`(${t.dailyCapMicros} is null or ${t.dailyCapMicros} > 0) and (${t.monthlyCapMicros} is null or ${t.monthlyCapMicros} > 0)`,
    ),
    check('api_keys_rate_tier_check', sql`${t.rateTier} in ('standard', 'pro', 'enterprise')`),
    check(
      'api_keys_permissions_check',
      sql`cardinality(${t.permissions}) > 0 and ${t.permissions} <@ array['read', 'write', 'admin']::text[]`,
    ),
  ],
);

/** SSH public keys that rentals and the public API install on instances. */
export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    keyType: text('key_type').notNull(),
    publicKey: text('public_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ssh_keys_user_fingerprint_key').on(t.userId, t.fingerprint),
    check(
      'ssh_keys_type_check',
      sql`${t.keyType} in ('ssh-ed25519', 'ssh-rsa', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521')`,
    ),
  ],
);

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type SshKey = typeof sshKeys.$inferSelect;
