import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';

/**
 * An account's authenticator-app secret (docs/decisions/023-two-factor-sign-in.md): pending
 * while enabled_at is null, in force once set. last_step is the last TOTP time step accepted,
 * so no code is accepted twice.
 */
export const userTwoFactor = pgTable(
  'user_two_factor',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Base32, never returned after setup. */
    secret: text('secret').notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true }),
    lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [check('user_two_factor_last_step_check', sql`${t.lastStep} >= 0`)],
);

/** One-time recovery codes: only a hash bound to the user; used_at set when used. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

/** A sign-in that passed the e-mail code and waits for the second factor. */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('two_factor_challenges_token_hash_unique'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('two_factor_challenges_user_idx').on(t.userId),
    check('two_factor_challenges_attempts_check', sql`${t.attempts} >= 0`),
  ],
);
