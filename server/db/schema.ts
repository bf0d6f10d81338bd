import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The single source of entity types (STYLE.md, t3-turbo). Migrations are generated
 * from this file by drizzle-kit into server/db/migrations and committed.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
    /** The settings object of spec part 2 section 3; missing keys take the section 9 defaults. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    phone: text('phone'),
    location: text('location'),
    bio: text('bio'),
    company: text('company'),
    website: text('website'),
    /** Set when the account is closed: personal data is cleared, financial records stay. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_theme_check', sql`${t.theme} in ('dark', 'light', 'pastel')`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
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
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    requestedIp: text('requested_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('otp_codes_email_idx').on(t.email, t.createdAt),
    check('otp_codes_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

export const providers = pgTable(
  'providers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').references(() => users.id),
    companyName: text('company_name').notNull(),
    location: text('location').notNull(),
    isVerified: boolean('is_verified').notNull().default(false),
    reputation: numeric('reputation', { precision: 2, scale: 1 }).notNull().default('0.0'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('providers_user_key').on(t.userId),
    uniqueIndex('providers_company_key').on(t.companyName),
    check('providers_reputation_check', sql`${t.reputation} between 0 and 5`),
  ],
);

export const gpuListings = pgTable(
  'gpu_listings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    model: text('model').notNull(),
    memory: text('memory').notNull(),
    cudaCores: integer('cuda_cores'),
    tensorCores: integer('tensor_cores'),
    location: text('location').notNull(),
    bandwidth: text('bandwidth').notNull(),
    hourlyRateMicros: bigint('hourly_rate_micros', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('available'),
    availableCount: integer('available_count').notNull(),
    totalCount: integer('total_count').notNull(),
    specifications: jsonb('specifications').$type<Record<string, unknown>>().notNull().default({}),
    /** Derived from model and memory at write time (shared/gpu-models.ts), for sorting. */
    memoryGb: integer('memory_gb').notNull().default(0),
    performanceScore: integer('performance_score').notNull().default(0),
    isDemoHost: boolean('is_demo_host').notNull().default(false),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('gpu_listings_provider_idx').on(t.providerId),
    index('gpu_listings_rate_idx').on(t.hourlyRateMicros, t.id),
    check('gpu_listings_status_check', sql`${t.status} in ('available', 'rented', 'maintenance')`),
    check(
      'gpu_listings_counts_check',
      sql`${t.availableCount} >= 0 and ${t.availableCount} <= ${t.totalCount}`,
    ),
    check('gpu_listings_rate_check', sql`${t.hourlyRateMicros} > 0`),
  ],
);

/**
 * The ledger (DESIGN.md section 3, docs/decisions/002). Wallets and provider earnings
 * keep a cached balance; shared system accounts (escrow, platform revenue, promotions,
 * payment clearing) do not, so no single row is updated by every charge.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id),
    providerId: integer('provider_id').references(() => providers.id),
    balanceMicros: bigint('balance_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    tracksBalance: boolean('tracks_balance').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_kind_key').on(t.kind, t.userId),
    uniqueIndex('ledger_accounts_provider_kind_key').on(t.kind, t.providerId),
    uniqueIndex('ledger_accounts_system_kind_key')
      .on(t.kind)
      .where(sql`${t.userId} is null and ${t.providerId} is null`),
    check(
      'ledger_accounts_kind_check',
      sql`${t.kind} in ('wallet', 'provider_earnings', 'platform_revenue', 'payment_clearing', 'promotions', 'escrow')`,
    ),
    check(
      'ledger_accounts_wallet_nonnegative',
      sql`${t.kind} <> 'wallet' or ${t.balanceMicros} >= 0`,
    ),
    check(
      'ledger_accounts_owner_check',
      sql`(${t.kind} = 'wallet') = (${t.userId} is not null) and (${t.kind} = 'provider_earnings') = (${t.providerId} is not null)`,
    ),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    memo: text('memo').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** What caused it, e.g. "rental:42" or "paypal-capture:…". */
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_idempotency_key').on(t.idempotencyKey),
    index('ledger_transactions_reference_idx').on(t.reference),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint('transaction_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_nonzero', sql`${t.amountMicros} <> 0`),
  ],
);

export type User = typeof users.$inferSelect;
export type Provider = typeof providers.$inferSelect;
export type GpuListing = typeof gpuListings.$inferSelect;
export type LedgerAccount = typeof ledgerAccounts.$inferSelect;

export const newsletterSubscriptions = pgTable(
  'newsletter_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    subscriptionSource: text('subscription_source').notNull().default('blog'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('newsletter_subscriptions_email_key').on(t.email)],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    category: text('category').notNull().default('general'),
    userId: uuid('user_id').references(() => users.id),
    ip: text('ip'),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('contact_messages_created_idx').on(t.createdAt),
    check(
      'contact_messages_category_check',
      sql`${t.category} in ('general', 'technical', 'billing', 'sales', 'partnership', 'bug', 'feature')`,
    ),
  ],
);

export const rentals = pgTable(
  'rentals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    gpuListingId: integer('gpu_listing_id')
      .notNull()
      .references(() => gpuListings.id),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    durationHours: integer('duration_hours').notNull(),
    hourlyRateMicros: bigint('hourly_rate_micros', { mode: 'bigint' }).notNull(),
    /** durationHours × hourly rate, held in escrow while the rental runs. */
    bookedCostMicros: bigint('booked_cost_micros', { mode: 'bigint' }).notNull(),
    storageFeeMicros: bigint('storage_fee_micros', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('active'),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** When the demo host simulator makes the instance ready (null for real hosts). */
    readyDueAt: timestamp('ready_due_at', { withTimezone: true }),
    provisioningDeadline: timestamp('provisioning_deadline', { withTimezone: true }).notNull(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    sshHost: text('ssh_host'),
    sshPort: integer('ssh_port'),
    sshUsername: text('ssh_username').notNull().default('ubuntu'),
    usedSeconds: integer('used_seconds'),
    usedCostMicros: bigint('used_cost_micros', { mode: 'bigint' }),
    refundMicros: bigint('refund_micros', { mode: 'bigint' }),
    platformFeeMicros: bigint('platform_fee_micros', { mode: 'bigint' }),
    settledBy: text('settled_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('rentals_user_idx').on(t.userId, t.startTime),
    index('rentals_provider_idx').on(t.providerId, t.startTime),
    index('rentals_listing_active_idx').on(t.gpuListingId).where(sql`${t.status} = 'active'`),
    index('rentals_ends_at_active_idx').on(t.endsAt).where(sql`${t.status} = 'active'`),
    index('rentals_provisioning_idx')
      .on(t.provisioningDeadline)
      .where(sql`${t.status} = 'active' and ${t.readyAt} is null`),
    uniqueIndex('rentals_active_ssh_port_key')
      .on(t.sshPort)
      .where(sql`${t.status} = 'active' and ${t.sshPort} is not null`),
    check('rentals_status_check', sql`${t.status} in ('active', 'completed', 'cancelled')`),
    check('rentals_duration_check', sql`${t.durationHours} between 1 and 720`),
    check(
      'rentals_settled_by_check',
      sql`${t.settledBy} is null or ${t.settledBy} in ('user', 'expiry', 'provisioning_timeout', 'api')`,
    ),
    check('rentals_settlement_check', sql`(${t.status} = 'active') = (${t.endTime} is null)`),
  ],
);

export type Rental = typeof rentals.$inferSelect;

/**
 * API keys (DESIGN.md section 4): only a SHA-256 of the key is stored, with a visible
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
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_user_idx').on(t.userId),
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

/**
 * A credit purchase through PayPal. The server fixes amount and bonus when it creates the
 * order; the wallet is credited once, when PayPal reports that exact amount captured.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider').notNull().default('paypal'),
    paypalOrderId: text('paypal_order_id'),
    packageId: text('package_id'),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    bonusMicros: bigint('bonus_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    currency: text('currency').notNull().default('USD'),
    status: text('status').notNull().default('creating'),
    paypalCaptureId: text('paypal_capture_id'),
    reviewReason: text('review_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_orders_paypal_order_key').on(t.paypalOrderId),
    uniqueIndex('payment_orders_paypal_capture_key').on(t.paypalCaptureId),
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    check(
      'payment_orders_status_check',
      sql`${t.status} in ('creating', 'created', 'pending', 'completed', 'failed', 'review')`,
    ),
    check('payment_orders_amount_check', sql`${t.amountMicros} > 0 and ${t.bonusMicros} >= 0`),
    check(
      'payment_orders_completed_check',
      sql`${t.status} <> 'completed' or (${t.completedAt} is not null and ${t.paypalCaptureId} is not null)`,
    ),
  ],
);

/** Every status change of a payment order, with what caused it. */
export const paymentOrderEvents = pgTable(
  'payment_order_events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => paymentOrders.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    source: text('source').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('payment_order_events_order_idx').on(t.orderId, t.id)],
);

/** PayPal webhook deliveries already handled (PayPal retries; each event counts once). */
export const paypalWebhookEvents = pgTable('paypal_webhook_events', {
  id: text('id').primaryKey(),
  eventType: text('event_type').notNull(),
  resourceId: text('resource_id'),
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ApiKey = typeof apiKeys.$inferSelect;
export type SshKey = typeof sshKeys.$inferSelect;
export type PaymentOrder = typeof paymentOrders.$inferSelect;
