import { and, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  FAILS_WHEN_UNREACHABLE,
  GPU_HOLDING_STATES,
  type InstanceState,
  TRANSITIONAL_STATES,
} from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiled, compiledByShape } from '../../db/compiled';
import { gpuListings, instances, providers } from '../../db/schema';
import { stateList } from '../../db/states';
import type { GpuChoice } from '../listings/gpu-binding';
import { type PlanCapabilities, planArray, plansThat } from './plans/registry';
import { type Instance, type InstanceRow, viewColumns } from './repo-rows';

export type { InstanceRow } from './repo-rows';

/** Where a user's alerts go: their address and the settings that say whether they want them. */
export interface AlertRecipient {
  email: string;
  settings: unknown;
}

type Changes = Partial<typeof instances.$inferInsert>;

/** Instances as the views show them: with their listing and provider. */
const views = (conn: Conn) =>
  conn
    .select(viewColumns)
    .from(instances)
    .innerJoin(gpuListings, eq(gpuListings.id, instances.gpuListingId))
    .innerJoin(providers, eq(providers.id, instances.providerId));

const viewById = (conn: Conn) =>
  views(conn)
    .where(eq(instances.id, sql.placeholder('id')))
    .limit(1);
const lockViewById = compiled<{ id: number }, InstanceRow[]>('instances_lock_view', (conn) =>
  viewById(conn).for('update', { of: instances }),
);
const findViewById = compiled<{ id: number }, InstanceRow[]>('instances_find_view', viewById);

/** Inserts and state changes, compiled once per shape (server/db/compiled.ts). */
const insertShaped = compiledByShape<Instance[]>('instances_insert', (conn, set) =>
  conn
    .insert(instances)
    .values(set as typeof instances.$inferInsert)
    .returning(),
);

/**
 * A new instance whose GPU the statement itself chooses (gpuBinding.choiceForNew): the lowest
 * usable index no live instance of its pool holds, read after the reserve took the pool's lock
 * (a statement of the same transaction that began after it, so it sees every instance
 * committed before); `[]` when none is free, and the caller rolls the launch back.
 */
const insertChoosingGpuShaped = compiledByShape<Instance[], GpuChoice['pool']>(
  'instances_insert_gpu',
  (conn, set, pool) => {
    const scope =
      pool === 'host'
        ? sql`o.host_id = ${sql.placeholder('gpuPoolKey')}::text`
        : sql`o.gpu_listing_id = ${sql.placeholder('gpuPoolKey')}::int`;
    return conn
      .insert(instances)
      .values({
        ...(set as typeof instances.$inferInsert),
        // The pool's held indexes read once (a hashed subplan), not once per usable index: the
        // rent bench's demo listings of 1,000 units with ~40 instances each compared 46,000
        // pairs a rent (27 ms) where this takes 0.5 ms. Only numbers are indexes (a null in a
        // NOT IN list would make every index look held).
        gpuIndexes: sql`coalesce((select jsonb_build_array(min(u.i))
          from unnest(${sql.placeholder('gpuUsable')}::int[]) as u(i)
          where u.i not in (select (g.i #>> '{}')::int
            from instances o cross join lateral jsonb_array_elements(o.gpu_indexes) as g(i)
            where ${scope} and o.status in ${stateList(GPU_HOLDING_STATES)}
              and jsonb_typeof(g.i) = 'number')
          having min(u.i) is not null), '[]'::jsonb)`,
      })
      .returning();
  },
  (pool) => pool,
);

const transitionShaped = compiledByShape<Instance[], readonly InstanceState[]>(
  'instances_transition',
  (conn, set, from) =>
    conn
      .update(instances)
      .set({ ...set, generation: sql`${instances.generation} + 1` })
      .where(and(eq(instances.id, sql.placeholder('__id')), inArray(instances.status, [...from])))
      .returning(),
  (from) => from.join(','),
);

/**
 * A provisioning instance's first readiness, in one statement (no transaction, no lock
 * first): only while it is still provisioning at the reported generation and before its
 * deadline. Anything else is left to the general path, which locks and decides.
 */
const markReadyStatement = compiled<Record<string, unknown>, { generation: number }[]>(
  'instances_mark_ready',
  (conn) =>
    conn
      .update(instances)
      .set({
        generation: sql`${instances.generation} + 1`,
        status: 'running',
        // Never before the state it leaves began (a host's clock, or a backdated report).
        stateChangedAt: sql`greatest(${sql.placeholder('at')}::timestamptz, ${instances.stateChangedAt})`,
        readyAt: sql`greatest(${sql.placeholder('at')}::timestamptz, ${instances.stateChangedAt})`,
        // Its booked hours run from then (issue 39: billing from ready).
        endsAt: sql`greatest(${sql.placeholder('at')}::timestamptz, ${instances.stateChangedAt}) + ${instances.durationHours} * interval '1 hour'`,
        sshHost: sql`coalesce(${sql.placeholder('sshHost')}::text, ${instances.sshHost})`,
        sshPort: sql`coalesce(${sql.placeholder('sshPort')}::int, ${instances.sshPort})`,
        sshUsername: sql`coalesce(${sql.placeholder('sshUsername')}::text, ${instances.sshUsername})`,
        vncAddress: sql`coalesce(${sql.placeholder('vncAddress')}::text, ${instances.vncAddress})`,
        sshHostKey: sql`${sql.placeholder('sshHostKey')}::text`,
        sshHostKeyFingerprint: sql`${sql.placeholder('sshHostKeyFingerprint')}::text`,
        provisioningProgress: null,
      })
      .where(
        and(
          eq(instances.id, sql.placeholder('id')),
          eq(instances.status, 'provisioning'),
          // A plan whose readiness moves money (a first compute minute) takes the general path.
          sql`${instances.billingPlan} = any(${sql.placeholder('plans')}::text[])`,
          eq(instances.generation, sql.placeholder('generation')),
          isNull(instances.readyAt),
          sql`${instances.provisioningDeadline} > ${sql.placeholder('at')}::timestamptz`,
        ),
      )
      // Only its new generation (what the host is answered): the ready alert's address is the
      // mail reader's, which reads its batch's, and a row of every column cost the server's
      // thread more than the rest of the statement (issue 43).
      .returning({ generation: instances.generation }),
);

export const instancesRepo = {
  /**
   * Inserts a new instance with its GPU chosen in the same statement (`gpuIndexes` empty when
   * every usable GPU of the pool is held: the caller throws, and its transaction rolls back).
   */
  async insertChoosingGpu(
    conn: Conn,
    values: Omit<typeof instances.$inferInsert, 'gpuIndexes'>,
    choice: GpuChoice,
  ): Promise<Instance> {
    const rows = insertChoosingGpuShaped(conn, values, choice.pool, {
      gpuPoolKey: choice.key,
      gpuUsable: choice.usable,
    });
    if (!rows) throw new Error('an instance insert choosing its GPU takes values only');
    const [row] = await rows;
    if (!row) throw new Error('instance insert returned nothing');
    return row;
  },

  async insert(conn: Conn, values: typeof instances.$inferInsert) {
    const [row] =
      (await insertShaped(conn, values, undefined)) ??
      (await conn.insert(instances).values(values).returning());
    if (!row) throw new Error('instance insert returned nothing');
    return row;
  },

  /**
   * A provisioning instance whose plan's readiness moves no money (a rental: its hours begin
   * then) becomes running with its first readiness report, in one statement. Null when it is not (or no longer) provisioning at that generation, or the
   * deadline has passed: the caller then takes the general path.
   */
  async markReady(
    conn: Conn,
    report: {
      id: number;
      generation: number;
      at: Date;
      sshHost?: string | undefined;
      sshPort?: number | undefined;
      sshUsername?: string | undefined;
      vncAddress?: string | undefined;
      sshHostKey?: string | undefined;
      sshHostKeyFingerprint?: string | undefined;
    },
  ): Promise<{ generation: number } | null> {
    const [row] = await markReadyStatement(conn, {
      id: report.id,
      generation: report.generation,
      at: report.at.toISOString(),
      sshHost: report.sshHost ?? null,
      sshPort: report.sshPort ?? null,
      sshUsername: report.sshUsername ?? null,
      vncAddress: report.vncAddress ?? null,
      sshHostKey: report.sshHostKey ?? null,
      sshHostKeyFingerprint: report.sshHostKeyFingerprint ?? null,
      plans: planArray((c) => c.readyMovesNoMoney),
    });
    return row ?? null;
  },

  /** The instance with what its view needs, its row locked for the caller's transaction. */
  async lockView(conn: Conn, id: number): Promise<InstanceRow | null> {
    return (await lockViewById(conn, { id }))[0] ?? null;
  },

  async findView(conn: Conn, id: number): Promise<InstanceRow | null> {
    return (await findViewById(conn, { id }))[0] ?? null;
  },

  list(
    conn: Conn,
    by: { userId: string } | { providerId: number },
    shows?: PlanCapabilities['listedAs'],
  ): Promise<InstanceRow[]> {
    const owner =
      'userId' in by ? eq(instances.userId, by.userId) : eq(instances.providerId, by.providerId);
    return views(conn)
      .where(
        and(
          owner,
          shows
            ? inArray(
                instances.billingPlan,
                plansThat((c) => c.listedAs === shows),
              )
            : undefined,
        ),
      )
      .orderBy(desc(instances.startTime), desc(instances.id))
      .limit(500);
  },

  /** A page of one user's instances, newest first (keyset on id), optionally of one state. */
  listPage(
    conn: Conn,
    userId: string,
    page: { status?: InstanceState; beforeId?: number; limit: number },
  ): Promise<InstanceRow[]> {
    return views(conn)
      .where(
        and(
          eq(instances.userId, userId),
          page.status ? eq(instances.status, page.status) : undefined,
          page.beforeId !== undefined ? lt(instances.id, page.beforeId) : undefined,
        ),
      )
      .orderBy(desc(instances.id))
      .limit(page.limit);
  },

  /**
   * Moves an instance to a new state: the generation goes up by one with every change.
   * Only when it is still in one of `from` (null: nothing changed, someone else moved it).
   */
  async transition(
    conn: Conn,
    id: number,
    from: readonly InstanceState[],
    to: InstanceState,
    at: Date,
    changes: Changes = {},
  ) {
    const values = {
      // Progress is only ever shown on the way to running; a new run has a new host key
      // until its host reports the guest's with its readiness (docs/decisions/015).
      ...(to === 'provisioning' || to === 'starting' ? {} : { provisioningProgress: null }),
      ...(to === 'starting' ? { sshHostKey: null, sshHostKeyFingerprint: null } : {}),
      ...changes,
      status: to,
      stateChangedAt: at,
    };
    const [row] =
      (await transitionShaped(conn, values, from, { __id: id })) ??
      (await conn
        .update(instances)
        .set({ ...values, generation: sql`${instances.generation} + 1` })
        .where(and(eq(instances.id, id), inArray(instances.status, [...from])))
        .returning());
    return row ?? null;
  },

  /** Provisioning instances past their deadline; rows another worker holds are skipped. */
  claimOverdue(conn: Conn, now: Date, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(and(eq(instances.status, 'provisioning'), lte(instances.provisioningDeadline, now)))
      .orderBy(instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Instances whose host has been unreachable since before `since`; held rows are skipped. */
  claimUnreachable(conn: Conn, since: Date, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          inArray(instances.status, FAILS_WHEN_UNREACHABLE),
          isNull(instances.endTime),
          lte(instances.unreachableSince, since),
        ),
      )
      .orderBy(instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Instances a host has yet to converge (placed there, awaiting its report), oldest change first. */
  async pendingOnHost(conn: Conn, hostId: string, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(and(eq(instances.hostId, hostId), inArray(instances.status, TRANSITIONAL_STATES)))
      .orderBy(instances.stateChangedAt, instances.id)
      .limit(limit);
  },

  /** The lowest port in a range that no live instance uses. */
  async freePort(conn: Conn, first: number, last: number): Promise<number | null> {
    const result = await conn.execute(sql`
      select p from generate_series(${first}::int, ${last}::int) as p
      where not exists (select 1 from ${instances} i where i.end_time is null and i.ssh_port = p)
      order by p limit 1`);
    const row = (result as unknown as { rows: { p: number }[] }).rows[0];
    return row ? Number(row.p) : null;
  },

  async countLiveByUser(conn: Conn, userId: string): Promise<number> {
    const rows = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(eq(instances.userId, userId), isNull(instances.endTime)));
    return rows[0]?.n ?? 0;
  },
};
