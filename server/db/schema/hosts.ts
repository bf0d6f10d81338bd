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
} from 'drizzle-orm/pg-core';
import type { GpuInventory, HostInventory } from '../../../shared/contracts/agent-protocol';
import { createdAt } from './columns';
import { providers } from './marketplace';

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
    agentVersion: text('agent_version'),
    accelerator: text('accelerator'),
    inventory: jsonb('inventory').$type<{ host: HostInventory; gpus: GpuInventory } | null>(),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }),
    /** Set when the host went silent for 90 s; cleared by its next heartbeat. */
    offlineSince: timestamp('offline_since', { withTimezone: true }),
    heartbeatCount: bigint('heartbeat_count', { mode: 'number' }).notNull().default(0),
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
  ],
);

export type Host = typeof hosts.$inferSelect;
export type HostOutage = typeof hostOutages.$inferSelect;
