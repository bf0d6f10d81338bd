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
import { users } from './accounts';
import { createdAt } from './columns';

export const providers = pgTable(
  'providers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').references(() => users.id),
    companyName: text('company_name').notNull(),
    location: text('location').notNull(),
    isVerified: boolean('is_verified').notNull().default(false),
    reputation: numeric('reputation', { precision: 2, scale: 1 }).notNull().default('0.0'),
    /**
     * A demo visitor's own provider (docs/decisions/010-a-demo-account-per-visitor.md): its
     * listings are seen and rented only by its owner, never in the public marketplace.
     */
    isSandbox: boolean('is_sandbox').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('providers_user_key').on(t.userId),
    // Every demo visitor's provider is called "Demo Compute Co."; public names stay unique.
    uniqueIndex('providers_company_key').on(t.companyName).where(sql`not ${t.isSandbox}`),
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
      sql`${t.settledBy} is null or ${t.settledBy} in ('user', 'expiry', 'provisioning_timeout', 'api', 'demo_cleanup')`,
    ),
    check('rentals_settlement_check', sql`(${t.status} = 'active') = (${t.endTime} is null)`),
  ],
);

export type Provider = typeof providers.$inferSelect;
export type GpuListing = typeof gpuListings.$inferSelect;
export type Rental = typeof rentals.$inferSelect;
