import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
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
import { hosts } from './hosts';

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
    /** The host that runs its instances (null: not placed yet, or a demo host). */
    hostId: text('host_id').references((): AnyPgColumn => hosts.id),
    /** The host's GPU indexes (nvidia-smi `index`) this listing offers, one per unit. */
    hostGpuIndexes: jsonb('host_gpu_indexes').$type<number[]>().notNull().default([]),
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

export type Provider = typeof providers.$inferSelect;
export type GpuListing = typeof gpuListings.$inferSelect;
