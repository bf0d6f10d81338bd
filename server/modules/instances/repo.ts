import { and, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { InstanceState } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiled, compiledByShape } from '../../db/compiled';
import { balanceAlerts, gpuListings, instances, providers } from '../../db/schema';

const viewColumns = {
  instance: instances,
  listing: {
    model: gpuListings.model,
    location: gpuListings.location,
    isDemoHost: gpuListings.isDemoHost,
    memoryGb: gpuListings.memoryGb,
  },
  provider: { companyName: providers.companyName },
};

/** An instance with what its views need: the listing's model and place, the provider's name. */
export type InstanceRow = {
  instance: typeof instances.$inferSelect;
  /** memoryGb: the GPU's memory (absent where a caller built the row by hand). */
  listing: { model: string; location: string; isDemoHost: boolean; memoryGb?: number };
  provider: { companyName: string };
};

type Changes = Partial<typeof instances.$inferInsert>;

const viewById = (conn: Conn) =>
  conn
    .select(viewColumns)
    .from(instances)
    .innerJoin(gpuListings, eq(gpuListings.id, instances.gpuListingId))
    .innerJoin(providers, eq(providers.id, instances.providerId))
    .where(eq(instances.id, sql.placeholder('id')))
    .limit(1);
const lockViewById = compiled<{ id: number }, InstanceRow[]>('instances_lock_view', (conn) =>
  viewById(conn).for('update', { of: instances }),
);
const findViewById = compiled<{ id: number }, InstanceRow[]>('instances_find_view', viewById);

type Instance = typeof instances.$inferSelect;

/** Inserts and state changes, compiled once per shape (server/db/compiled.ts). */
const insertShaped = compiledByShape<Instance[]>('instances_insert', (conn, set) =>
  conn
    .insert(instances)
    .values(set as typeof instances.$inferInsert)
    .returning(),
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
const markReadyStatement = compiled<Record<string, unknown>, Instance[]>(
  'instances_mark_ready',
  (conn) =>
    conn
      .update(instances)
      .set({
        generation: sql`${instances.generation} + 1`,
        status: 'running',
        stateChangedAt: sql`${sql.placeholder('at')}::timestamptz`,
        readyAt: sql`${sql.placeholder('at')}::timestamptz`,
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
          eq(instances.generation, sql.placeholder('generation')),
          isNull(instances.readyAt),
          sql`${instances.provisioningDeadline} > ${sql.placeholder('at')}::timestamptz`,
        ),
      )
      .returning(),
);

export const instancesRepo = {
  async insert(conn: Conn, values: typeof instances.$inferInsert) {
    const [row] =
      (await insertShaped(conn, values, undefined)) ??
      (await conn.insert(instances).values(values).returning());
    if (!row) throw new Error('instance insert returned nothing');
    return row;
  },

  /**
   * A provisioning instance becomes running with its first readiness report, in one
   * statement. Null when it is not (or no longer) provisioning at that generation, or the
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
  ): Promise<Instance | null> {
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
    plan?: 'booked' | 'metered',
  ): Promise<InstanceRow[]> {
    const owner =
      'userId' in by ? eq(instances.userId, by.userId) : eq(instances.providerId, by.providerId);
    return conn
      .select(viewColumns)
      .from(instances)
      .innerJoin(gpuListings, eq(gpuListings.id, instances.gpuListingId))
      .innerJoin(providers, eq(providers.id, instances.providerId))
      .where(and(owner, plan ? eq(instances.billingPlan, plan) : undefined))
      .orderBy(desc(instances.startTime), desc(instances.id))
      .limit(500);
  },

  /** A page of one user's instances, newest first (keyset on id), optionally of one state. */
  listPage(
    conn: Conn,
    userId: string,
    page: { status?: InstanceState; beforeId?: number; limit: number },
  ): Promise<InstanceRow[]> {
    return conn
      .select(viewColumns)
      .from(instances)
      .innerJoin(gpuListings, eq(gpuListings.id, instances.gpuListingId))
      .innerJoin(providers, eq(providers.id, instances.providerId))
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

  /** Claims due work; rows another worker holds are skipped, not waited for. */
  async claimDue(
    conn: Conn,
    kind: 'deadline' | 'expiry' | 'metered' | 'unreachable',
    now: Date,
    limit: number,
    unreachableForMs = 0,
  ) {
    const where =
      kind === 'unreachable'
        ? and(
            inArray(instances.status, ['running', 'starting', 'stopping']),
            isNull(instances.endTime),
            lte(instances.unreachableSince, new Date(now.getTime() - unreachableForMs)),
          )
        : kind === 'deadline'
          ? and(eq(instances.status, 'provisioning'), lte(instances.provisioningDeadline, now))
          : kind === 'expiry'
            ? and(
                eq(instances.billingPlan, 'booked'),
                isNull(instances.endTime),
                lte(instances.endsAt, now),
              )
            : and(
                eq(instances.billingPlan, 'metered'),
                isNull(instances.endTime),
                lte(instances.paidThrough, now),
              );
    const order = kind === 'metered' ? [instances.paidThrough, instances.id] : [instances.id];
    return conn
      .select()
      .from(instances)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Instances a host has yet to converge (placed there, awaiting its report), oldest change first. */
  async pendingOnHost(conn: Conn, hostId: string, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          eq(instances.hostId, hostId),
          inArray(instances.status, ['provisioning', 'starting', 'stopping', 'terminating']),
        ),
      )
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

  /** After one minute's charge: paid a minute further, counts and total moved. */
  async recordMinutes(
    conn: Conn,
    rows: { id: number; compute: number; storage: number; charged: bigint }[],
  ) {
    if (rows.length === 0) return;
    const values = sql.join(
      rows.map(
        (r) =>
          sql`(${r.id}::int, ${r.compute}::int, ${r.storage}::int, ${String(r.charged)}::bigint)`,
      ),
      sql`, `,
    );
    await conn.execute(sql`
      update ${instances} i set
        paid_through = i.paid_through + interval '1 minute',
        compute_minutes = i.compute_minutes + v.compute,
        storage_minutes = i.storage_minutes + v.storage,
        charged_micros = i.charged_micros + v.charged
      from (values ${values}) as v(id, compute, storage, charged)
      where i.id = v.id`);
  },

  async countLiveByUser(conn: Conn, userId: string): Promise<number> {
    const rows = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(eq(instances.userId, userId), isNull(instances.endTime)));
    return rows[0]?.n ?? 0;
  },

  /**
   * Users with metered instances that still exist: their wallet balance and what their
   * instances cost per hour now (compute while running or about to, storage always).
   */
  async meteredSpenders(conn: Conn, limit: number, afterUserId: string | null) {
    const result = await conn.execute(sql`
      select i.user_id,
        sum(case when i.status in ('provisioning', 'starting', 'running')
                 then ceil(i.hourly_rate_micros / 60.0) else 0 end
            + ceil(i.storage_gb * 1000 / 60.0))::bigint * 60 as hourly,
        (select a.balance_micros from ledger_accounts a
          where a.kind = 'wallet' and a.user_id = i.user_id) as balance
      from ${instances} i
      where i.billing_plan = 'metered' and i.end_time is null
        and (${afterUserId}::uuid is null or i.user_id > ${afterUserId}::uuid)
      group by i.user_id
      order by i.user_id
      limit ${limit}`);
    return (
      result as unknown as { rows: { user_id: string; hourly: string; balance: string | null }[] }
    ).rows.map((r) => ({
      userId: r.user_id,
      hourlyMicros: BigInt(r.hourly),
      balanceMicros: BigInt(r.balance ?? '0'),
    }));
  },

  /** Flips the low-balance mark; true only for the call that flipped it (warn once). */
  async markLowBalance(conn: Conn, userId: string, at: Date): Promise<boolean> {
    const rows = await conn
      .insert(balanceAlerts)
      .values({ userId, lowBalanceAt: at })
      .onConflictDoUpdate({
        target: balanceAlerts.userId,
        set: { lowBalanceAt: at },
        setWhere: isNull(balanceAlerts.lowBalanceAt),
      })
      .returning({ userId: balanceAlerts.userId });
    return rows.length === 1;
  },

  /** The wallet is above the threshold again: the next crossing warns anew; banners go. */
  async clearBalanceAlerts(conn: Conn, userId: string) {
    await conn
      .update(balanceAlerts)
      .set({ lowBalanceAt: null, stoppedAt: null, stoppedCount: 0 })
      .where(
        and(
          eq(balanceAlerts.userId, userId),
          sql`(${balanceAlerts.lowBalanceAt} is not null or ${balanceAlerts.stoppedAt} is not null)`,
        ),
      );
  },

  async markStoppedForCredits(conn: Conn, userId: string, at: Date, count: number) {
    await conn
      .insert(balanceAlerts)
      .values({ userId, stoppedAt: at, stoppedCount: count })
      .onConflictDoUpdate({
        target: balanceAlerts.userId,
        set: { stoppedAt: at, stoppedCount: sql`${balanceAlerts.stoppedCount} + ${count}` },
      });
  },

  async balanceAlertOf(conn: Conn, userId: string) {
    const rows = await conn
      .select()
      .from(balanceAlerts)
      .where(eq(balanceAlerts.userId, userId))
      .limit(1);
    return rows[0] ?? null;
  },
};
