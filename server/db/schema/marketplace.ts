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
import type { GpuInventory, HostInventory } from '../../../shared/contracts/agent-protocol';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { HostImageStatus } from '../../../shared/contracts/images';
import { users } from './accounts';
import { createdAt } from './columns';

/** What a demo-host listing's machine reports, as a host's inventory would (gpu-share.ts). */
export interface DemoMachine {
  cores: number;
  totalBytes: number;
  guestBytes: number | null;
  gpuCount: number;
  diskBytes: number;
  driverVersion: string;
  cudaVersion: string;
}

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

/**
 * The listings the public marketplace shows: not removed, available or rented, not a demo
 * visitor's sandbox. The page query says it in these words, so the partial indexes serve it.
 */
const marketplace = (t: { removedAt: AnyPgColumn; status: AnyPgColumn; isSandbox: AnyPgColumn }) =>
  sql`${t.removedAt} is null and ${t.status} in ('available', 'rented') and not ${t.isSandbox}`;

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
    /**
     * Why the listing cannot be rented although its host is online: a GPU it sells that the
     * host's last heartbeat no longer reports (docs/decisions/020); null when all are there.
     */
    gpuProblem: text('gpu_problem'),
    /**
     * How many of the GPUs it sells its host's readiness verdict says cannot serve a VM
     * (docs/decisions/021; every one when the host is not ready), kept after each heartbeat
     * and each placement. A renter can get `available_count - unready_gpus` units now
     * (shared/rules/gpu-binding.ts sellableUnits); `available_count` stays total less held.
     */
    unreadyGpus: integer('unready_gpus').notNull().default(0),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /**
     * Copies of the provider's company name and sandbox flag, kept by triggers
     * (migration 0015) so the marketplace's search and visibility are answered from this
     * row's indexes. Whatever is written here is replaced by the provider's own values.
     */
    providerName: text('provider_name').notNull().default(''),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    /**
     * What the marketplace's search text is found in: model, location and provider name,
     * lower-cased, one per line (a search has no line break, so no match spans two).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(model || chr(10) || location || chr(10) || provider_name)`),
    /**
     * Whether its host is online (enrolled, not removed, heard from, not marked offline),
     * kept by triggers (migration 0032): when the listing is put on a host, and when its
     * host comes online or goes offline. False without a host. Whatever is written here is
     * replaced when the host changes state.
     */
    hostOnline: boolean('host_online').notNull().default(false),
    /**
     * The listing's marketplace and public-API JSON, less its GPU share (and the closing
     * brace), kept by a trigger (migrations 0020 and 0032; page-query.ts appends the rest).
     * Whatever is written here is replaced.
     */
    marketJson: text('market_json').notNull().default(''),
    publicJson: text('public_json').notNull().default('') /**
     * GPUs one instance gets (a "4x H100" is a 4-GPU node per unit), the hourly price per GPU
     * and the memory on each GPU, generated from model, price and memory (migration 0040): the
     * marketplace's gpuCount, maxGpuHourPrice and minVramGb filters and gpu-price-asc sort.
     */,
    gpuCount: integer('gpu_count')
      .notNull()
      .generatedAlwaysAs(
        sql`greatest(1, coalesce(substring(model from '^([1-9][0-9]?)x\s')::integer, 1))`,
      ),
    gpuHourRateMicros: bigint('gpu_hour_rate_micros', { mode: 'bigint' })
      .notNull()
      .generatedAlwaysAs(
        sql`hourly_rate_micros / greatest(1, coalesce(substring(model from '^([1-9][0-9]?)x\s')::integer, 1))`,
      ),
    gpuMemoryGb: integer('gpu_memory_gb')
      .notNull()
      .generatedAlwaysAs(
        sql`memory_gb / greatest(1, coalesce(substring(model from '^([1-9][0-9]?)x\s')::integer, 1))`,
      ),
    /**
     * The machine a demo-host listing stands for (the seed's demo world), as a host reports its
     * own: its GPU share, disk and versions are read from it (listings/gpu-share.ts). Null: the
     * demo host's bounds (docs/decisions/024).
     */
    demoMachine: jsonb('demo_machine').$type<DemoMachine>(),
  },
  (t) => [
    index('gpu_listings_provider_idx').on(t.providerId, t.id),
    index('gpu_listings_rate_idx').on(t.hourlyRateMicros, t.id),
    // The marketplace's pages (server/modules/listings/page-query.ts): one index per sort,
    // holding only what the marketplace shows, each in its sort's order with id breaking
    // ties. Descending sorts are ascending on the negated key, so a keyset cursor is one
    // row comparison that the index answers. Each also INCLUDEs what a free-text page's
    // choosing statement reads (search text, model, the ready-to-run and filter columns, a
    // descending sort's own column), so that statement is an index-only scan: migration 0042
    // writes them (drizzle's index builder has no INCLUDE).
    index('gpu_listings_market_id_idx').on(t.id).where(marketplace(t)),
    index('gpu_listings_market_rate_idx').on(t.hourlyRateMicros, t.id).where(marketplace(t)),
    index('gpu_listings_market_rate_desc_idx')
      .on(sql`(- ${t.hourlyRateMicros})`, t.id)
      .where(marketplace(t)),
    index('gpu_listings_market_memory_idx').on(sql`(- ${t.memoryGb})`, t.id).where(marketplace(t)),
    index('gpu_listings_market_gpu_rate_idx').on(t.gpuHourRateMicros, t.id).where(marketplace(t)),
    index('gpu_listings_market_performance_idx')
      .on(sql`(- ${t.performanceScore})`, t.id)
      .where(marketplace(t)),
    // Migration 0046 adds, for each type of the filter bar (GPU_TYPE_FILTERS), the six above
    // again holding only that type's listings (`and model ilike '%h100%'`, the literal a page
    // with that type writes): a type with a sort walks its own listings in order. Written in
    // SQL only, as 0042's INCLUDEs are.
    // Search text and GPU type (case-insensitive substrings) by trigrams (pg_trgm).
    index('gpu_listings_market_search_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .where(marketplace(t)),
    index('gpu_listings_market_model_idx')
      .using('gin', t.model.op('gin_trgm_ops'))
      .where(marketplace(t)),
    check('gpu_listings_status_check', sql`${t.status} in ('available', 'rented', 'maintenance')`),
    check(
      'gpu_listings_counts_check',
      sql`${t.availableCount} >= 0 and ${t.availableCount} <= ${t.totalCount}`,
    ),
    check('gpu_listings_rate_check', sql`${t.hourlyRateMicros} > 0`),
    check('gpu_listings_unready_gpus_check', sql`${t.unreadyGpus} >= 0`),
    // A listing on a provider's host runs there, never on the demo host (migration 0030).
    check(
      'gpu_listings_demo_host_has_no_host',
      sql`not (${t.isDemoHost} and ${t.hostId} is not null)`,
    ),
  ],
);

/**
 * The recorded outages of the machines demo-host listings stand for (the seed writes each a
 * history), measured as host_outages are for a real host: a demo listing's reliability.
 */
export const demoHostOutages = pgTable(
  'demo_host_outages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    listingId: integer('listing_id')
      .notNull()
      .references(() => gpuListings.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('demo_host_outages_listing_idx').on(t.listingId, t.startedAt),
    check('demo_host_outages_period_check', sql`${t.endedAt} >= ${t.startedAt}`),
  ],
);

/**
 * A provider's machine running the agent (docs/decisions/008). Created by the provider with
 * a one-time enrolment token; the agent spends the token and from then on authenticates with
 * a credential. Only hashes of both are stored. `last_heartbeat_at` says whether it is
 * online; `offline_since` is set by the worker when it has been silent for 90 s.
 */
export const hosts = pgTable(
  'hosts',
  {
    /** Text, so that the in-process demo host can be `demo` in instances.host_id. */
    id: text('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    enrolTokenHash: text('enrol_token_hash'),
    enrolTokenExpiresAt: timestamp('enrol_token_expires_at', { withTimezone: true }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    credentialHash: text('credential_hash'),
    hostname: text('hostname'),
    /**
     * The name renters connect to, set by the provider (never by the host): a DNS name or an
     * IP literal. Null: the address the agent calls from (agentAddress).
     */
    publicHost: text('public_host'),
    /** The address the host's agent last called from, as the server saw it. */
    agentAddress: text('agent_address'),
    agentVersion: text('agent_version'),
    accelerator: text('accelerator'),
    /** The last heartbeat's inventory, and its image statuses (absent from older agents). */
    inventory: jsonb('inventory').$type<{
      host: HostInventory;
      gpus: GpuInventory;
      images?: HostImageStatus[];
    } | null>(),
    /**
     * shared/rules/host-readiness.ts's verdict on the last heartbeat (docs/decisions/021):
     * a host that is not ready, or a GPU not in `readyGpus`, takes no rentals. Null: not judged.
     */
    readiness: jsonb('readiness').$type<HostReadiness | null>(),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }),
    /** Set when the host went silent for 90 s; cleared by its next heartbeat. */
    offlineSince: timestamp('offline_since', { withTimezone: true }),
    heartbeatCount: bigint('heartbeat_count', { mode: 'number' }).notNull().default(0),
    /** Its events' sequence (docs/decisions/027): bumped by the database's trigger with each. */
    eventSeq: integer('event_seq').notNull().default(0),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('hosts_provider_idx').on(t.providerId),
    uniqueIndex('hosts_enrol_token_key').on(t.enrolTokenHash),
    uniqueIndex('hosts_credential_key').on(t.credentialHash),
    index('hosts_online_idx')
      .on(t.lastHeartbeatAt)
      .where(sql`${t.offlineSince} is null and ${t.enrolledAt} is not null`),
    // The silent-hosts job's claim: online hosts by when they were last heard from.
    index('hosts_silent_idx')
      .on(sql`coalesce(${t.lastHeartbeatAt}, ${t.enrolledAt})`)
      .where(
        sql`${t.offlineSince} is null and ${t.removedAt} is null and ${t.enrolledAt} is not null`,
      ),
    check(
      'hosts_accelerator_check',
      sql`${t.accelerator} is null or ${t.accelerator} in ('kvm', 'tcg', 'none')`,
    ),
  ],
);

/**
 * One period a host was offline: opened when it goes dark, closed by its next heartbeat.
 * The uptime score (rolling 30 days) and outage credits are computed from these.
 */
export const hostOutages = pgTable(
  'host_outages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    hostId: text('host_id')
      .notNull()
      .references(() => hosts.id),
    /** The last heartbeat before the silence (the outage began then, not 90 s later). */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Set once the outage credit rule has been applied to it (docs/decisions/011). */
    creditedAt: timestamp('credited_at', { withTimezone: true }),
  },
  (t) => [
    index('host_outages_host_idx').on(t.hostId, t.startedAt),
    uniqueIndex('host_outages_open_key').on(t.hostId).where(sql`${t.endedAt} is null`),
    // The outage-credits job's claim: outages not credited that are open or lasted 4 hours.
    index('host_outages_creditable_idx')
      .on(t.startedAt)
      .where(
        sql`${t.creditedAt} is null and (${t.endedAt} is null or ${t.endedAt} - ${t.startedAt} > interval '4 hours')`,
      ),
  ],
);

export type Provider = typeof providers.$inferSelect;
export type GpuListing = typeof gpuListings.$inferSelect;
export type Host = typeof hosts.$inferSelect;
export type HostOutage = typeof hostOutages.$inferSelect;
