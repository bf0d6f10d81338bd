import { sql } from 'drizzle-orm';
import {
  bigint,
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
import type { ProvisioningProgress } from '../../../shared/contracts/images';
import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import {
  FAILS_WHEN_UNREACHABLE,
  GPU_HOLDING_STATES,
  TRANSITIONAL_STATES,
  UNIT_HOLDING_STATES,
} from '../../../shared/rules/instance-lifecycle';
import { stateList } from '../states';
import { apiKeys, users } from './accounts';
import { createdAt } from './columns';
import { gpuListings, providers } from './marketplace';

/**
 * Every GPU machine, however it was obtained (docs/decisions/007): marketplace rentals on
 * the booked plan, VMs, deploys and API instances on the metered plan. Its status follows
 * shared/rules/instance-lifecycle.ts; presenters turn it into each screen's words.
 */
export const instances = pgTable(
  'instances',
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
    /** The host running it; null until placed (a listing without a host). */
    hostId: text('host_id'),
    /** How it was obtained: marketplace, vm, deploy or api. */
    source: text('source').notNull().default('marketplace'),
    template: text('template'),
    /**
     * What runs it (docs/decisions/025): a `vm` (QEMU, GPUs passed through) or a `container`
     * (an OCI image on its host's own NVIDIA driver, GPUs through CDI).
     */
    kind: text('kind').$type<InstanceKind>().notNull().default('vm'),
    /** A container's OCI image reference as asked for; null for a VM. */
    containerImage: text('container_image'),
    /** The digest (`sha256:…`) its host resolved a container's image to; null until then and for a VM. */
    imageDigest: text('image_digest'),
    /** booked (hours paid into escrow) or metered (charged per minute). */
    billingPlan: text('billing_plan').notNull().default('booked'),
    /** Increased by every state change; a host's report of an older one is ignored. */
    generation: integer('generation').notNull().default(1),
    status: text('status').notNull().default('provisioning'),
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Booked plan only. */
    durationHours: integer('duration_hours'),
    hourlyRateMicros: bigint('hourly_rate_micros', { mode: 'bigint' }).notNull(),
    /** durationHours × hourly rate, held in escrow while a booked instance runs (0 metered). */
    bookedCostMicros: bigint('booked_cost_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    storageFeeMicros: bigint('storage_fee_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    storageGb: integer('storage_gb').notNull().default(50),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    /** Booked plan: the end of the booked hours. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    provisioningDeadline: timestamp('provisioning_deadline', { withTimezone: true }).notNull(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    sshHost: text('ssh_host'),
    sshPort: integer('ssh_port'),
    sshUsername: text('ssh_username').notNull().default('ubuntu'),
    vncAddress: text('vnc_address'),
    /** Metered plan: minutes are paid up to here (charged a minute ahead). */
    paidThrough: timestamp('paid_through', { withTimezone: true }),
    computeMinutes: integer('compute_minutes').notNull().default(0),
    storageMinutes: integer('storage_minutes').notNull().default(0),
    chargedMicros: bigint('charged_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    /** What the host should give it (agent protocol's desired instance). */
    cpus: integer('cpus').notNull().default(8),
    memoryGb: integer('memory_gb').notNull().default(32),
    /**
     * The memory its guest really has, in MiB: what was asked, fitted to its GPU's share of
     * the host at creation (shared/rules/gpu-share.ts). Null on rows from before: memoryGb.
     */
    memoryMib: integer('memory_mib'),
    /** The host's GPU indexes (nvidia-smi `index`) it holds; empty until placed. */
    gpuIndexes: jsonb('gpu_indexes').$type<number[]>().notNull().default([]),
    /** The renter's OpenSSH public keys at creation (a later change to Settings is not pushed). */
    sshPublicKeys: jsonb('ssh_public_keys').$type<string[]>().notNull().default([]),
    vncPassword: text('vnc_password'),
    /**
     * The platform's per-instance key (the web console logs in with it): its public half is
     * installed beside the renter's keys; the private half never leaves the server.
     */
    platformSshPublicKey: text('platform_ssh_public_key'),
    platformSshPrivateKey: text('platform_ssh_private_key'),
    /** The template's setup (cloud-config or a script), handed to the host. */
    userData: text('user_data'),
    /** The API key that launched it (public API): its spend counts toward that key's caps. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id),
    /** Set while its host is offline; such time is never billed (docs/decisions/011). */
    unreachableSince: timestamp('unreachable_since', { withTimezone: true }),
    /** Booked plan: seconds it was unreachable, refunded at settlement. */
    unreachableSeconds: integer('unreachable_seconds').notNull().default(0),
    /** The host's last error for it (a failed boot), shown to the renter. */
    hostError: text('host_error'),
    /**
     * Where it is on its way to running, as its host last reported (downloading its image,
     * booting, running its setup); null outside provisioning and starting.
     */
    provisioningProgress: jsonb('provisioning_progress').$type<ProvisioningProgress>(),
    /**
     * The guest's SSH host key (an OpenSSH `type base64` line: the ed25519 one, else the first)
     * its host reported with this run's readiness, and its SHA-256 fingerprint as the server
     * computed it; null until then, and again from the next start.
     */
    sshHostKey: text('ssh_host_key'),
    sshHostKeyFingerprint: text('ssh_host_key_fingerprint'),
    /** When its host confirmed the machine is gone (terminated); a failed one is listed until then. */
    hostReleasedAt: timestamp('host_released_at', { withTimezone: true }),
    usedSeconds: integer('used_seconds'),
    usedCostMicros: bigint('used_cost_micros', { mode: 'bigint' }),
    refundMicros: bigint('refund_micros', { mode: 'bigint' }),
    platformFeeMicros: bigint('platform_fee_micros', { mode: 'bigint' }),
    /** Why it ended (or was last stopped by the system): user, expiry, provisioning_timeout, … */
    endReason: text('end_reason'),
    /**
     * Metered plan: when the worker stops it, or ends it for good (the renter's deadlines, set
     * at creation or later; null: none). Cleared once carried out.
     */
    stopAt: timestamp('stop_at', { withTimezone: true }),
    terminateAt: timestamp('terminate_at', { withTimezone: true }),
    /**
     * Metered plan, idle stop (docs/decisions/019): stopped once its GPUs stayed under
     * `idleThresholdPercent` with no SSH session or web console open for this many minutes (null or 0:
     * off). `lastActiveAt`: the last heartbeat with a GPU at or over the threshold, or the last
     * console check; `idleWarnedAt`: when the renter was warned (cleared by activity).
     */
    idleStopMinutes: integer('idle_stop_minutes'),
    idleThresholdPercent: integer('idle_threshold_percent').notNull().default(5),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    idleWarnedAt: timestamp('idle_warned_at', { withTimezone: true }),
    /** Its events' sequence (docs/decisions/027): bumped by the database's trigger with each. */
    eventSeq: integer('event_seq').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('instances_user_idx').on(t.userId, t.startTime),
    index('instances_provider_idx').on(t.providerId, t.startTime),
    index('instances_listing_unit_idx')
      .on(t.gpuListingId)
      .where(sql`${t.status} in ${stateList(UNIT_HOLDING_STATES)}`),
    // Choosing an instance's GPU (docs/decisions/020): the GPUs its pool's other instances
    // hold, on the host or of a demo listing, without reading every instance there has been.
    index('instances_host_gpus_idx')
      .on(t.hostId)
      .where(sql`${t.status} in ${stateList(GPU_HOLDING_STATES)}`),
    index('instances_listing_gpus_idx')
      .on(t.gpuListingId)
      .where(sql`${t.status} in ${stateList(GPU_HOLDING_STATES)}`),
    index('instances_booked_ends_at_idx')
      .on(t.endsAt)
      .where(sql`${t.billingPlan} = 'booked' and ${t.endTime} is null`),
    index('instances_provisioning_idx')
      .on(t.provisioningDeadline)
      .where(sql`${t.status} = 'provisioning'`),
    index('instances_metered_due_idx')
      .on(t.paidThrough)
      .where(sql`${t.billingPlan} = 'metered' and ${t.endTime} is null`),
    // The unreachable-instances job's claim: live instances whose host went dark.
    index('instances_unreachable_idx')
      .on(t.unreachableSince)
      .where(
        sql`${t.unreachableSince} is not null and ${t.endTime} is null and ${t.status} in ${stateList(FAILS_WHEN_UNREACHABLE)}`,
      ),
    // The deadline jobs' claims (worker/jobs.ts): live rows with a deadline only.
    index('instances_stop_at_idx')
      .on(t.stopAt)
      .where(sql`${t.stopAt} is not null and ${t.endTime} is null`),
    index('instances_terminate_at_idx')
      .on(t.terminateAt)
      .where(sql`${t.terminateAt} is not null and ${t.endTime} is null`),
    // The idle-stop job's claim (commands/idle-stop.ts): live rows with idle stop on only.
    index('instances_idle_stop_idx')
      .on(t.lastActiveAt)
      .where(sql`${t.idleStopMinutes} > 0 and ${t.endTime} is null`),
    // The heartbeat's desired-state list: everything on a host it has not let go of yet.
    index('instances_api_key_live_idx')
      .on(t.apiKeyId)
      .where(sql`${t.apiKeyId} is not null and ${t.endTime} is null`),
    index('instances_on_host_idx')
      .on(t.hostId)
      .where(sql`${t.hostReleasedAt} is null and ${t.hostId} is not null`),
    index('instances_host_pending_idx')
      .on(t.hostId)
      .where(sql`${t.status} in ${stateList(TRANSITIONAL_STATES)}`),
    // Each host hands out its own ports: one live instance per (host, port). Per host, not per
    // address: one host must not be able to claim another's address and port first
    // (docs/decisions/013-hosts-are-untrusted.md).
    uniqueIndex('instances_live_host_port_key')
      .on(t.hostId, t.sshPort)
      .where(sql`${t.endTime} is null and ${t.sshPort} is not null`),
    check(
      'instances_status_check',
      sql`${t.status} in ('provisioning', 'running', 'stopping', 'stopped', 'starting', 'terminating', 'terminated', 'failed')`,
    ),
    check('instances_source_check', sql`${t.source} in ('marketplace', 'vm', 'deploy', 'api')`),
    check('instances_kind_check', sql`${t.kind} in ('vm', 'container')`),
    check(
      'instances_container_image_check',
      sql`${t.kind} <> 'container' or ${t.containerImage} is not null`,
    ),
    // A plan is named by its code (modules/instances/plans), not by a list here (0039).
    check('instances_billing_plan_check', sql`${t.billingPlan} ~ '^[a-z][a-z_]{0,31}$'`),
    check(
      'instances_booked_check',
      sql`${t.billingPlan} <> 'booked' or (${t.durationHours} between 1 and 720 and ${t.endsAt} is not null)`,
    ),
    check(
      'instances_metered_check',
      sql`${t.billingPlan} <> 'metered' or ${t.paidThrough} is not null`,
    ),
    check(
      'instances_idle_stop_check',
      sql`(${t.idleStopMinutes} is null or ${t.idleStopMinutes} >= 0) and ${t.idleThresholdPercent} between 1 and 100`,
    ),
    check(
      'instances_end_reason_check',
      sql`${t.endReason} is null or ${t.endReason} in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup', 'deadline_stop', 'deadline_terminate', 'spend_cap', 'idle_stop', 'preempted')`,
    ),
    check(
      'instances_ended_check',
      sql`(${t.status} in ('terminating', 'terminated', 'failed')) = (${t.endTime} is not null)`,
    ),
  ],
);

/**
 * Low-balance and out-of-credit notices per user: the worker warns once per crossing and
 * the app shows a banner until the wallet is topped up.
 */
export const balanceAlerts = pgTable('balance_alerts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  /** Set when the wallet fell below the user's threshold; cleared once it is above again. */
  lowBalanceAt: timestamp('low_balance_at', { withTimezone: true }),
  /** Set when metered instances were stopped for want of credits; cleared by a top-up. */
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  stoppedCount: integer('stopped_count').notNull().default(0),
});

/**
 * The web consoles open now, one row per session, across every server process (docs/
 * architecture.md, "Web console"): the per-user limit counts the rows whose lease has not
 * expired. The process holding a session renews its lease while the socket is open and
 * deletes the row when it closes; a process that dies leaves rows that expire on their own.
 * Used when no REDIS_URL is set (with one, the count lives in Redis).
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The server process holding the socket (a random id per process start). */
    owner: text('owner').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('console_sessions_user_idx').on(t.userId, t.expiresAt),
    index('console_sessions_expires_idx').on(t.expiresAt),
  ],
);

export type Instance = typeof instances.$inferSelect;
