import { and, desc, eq, getTableColumns, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { InstanceState } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiled, compiledByShape, compiledSql } from '../../db/compiled';
import { balanceAlerts, gpuListings, instances, providers, users } from '../../db/schema';
import {
  type PostingMarkers,
  type PostingOutcomeRow,
  type PreparedLines,
  type PreparedPosting,
  postingCtes,
  postingOutcome,
  readPostingOutcome,
} from '../ledger/service';
import { releaseUnitSql, reserveUnitSql } from '../listings/service';

/** Where a user's alerts go: their address and the settings that say whether they want them. */
export interface AlertRecipient {
  email: string;
  settings: unknown;
}

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
const markReadyStatement = compiled<
  Record<string, unknown>,
  { instance: Instance; recipient: AlertRecipient }[]
>('instances_mark_ready', (conn) =>
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
    .from(users)
    .where(
      and(
        eq(instances.id, sql.placeholder('id')),
        eq(instances.status, 'provisioning'),
        eq(instances.generation, sql.placeholder('generation')),
        isNull(instances.readyAt),
        sql`${instances.provisioningDeadline} > ${sql.placeholder('at')}::timestamptz`,
        eq(users.id, instances.userId),
      ),
    )
    // The ready alert's address and settings come with it: the alert reads nothing more.
    .returning({
      instance: getTableColumns(instances),
      recipient: { email: users.email, settings: users.settings },
    }),
);

const instanceColumns = Object.entries(getTableColumns(instances));

/** An instance row as PostgreSQL sends it from a statement written by hand, mapped as drizzle maps it. */
function instanceFromRow(row: Record<string, unknown>): Instance {
  const instance: Record<string, unknown> = {};
  for (const [key, column] of instanceColumns) {
    if (!(column.name in row)) throw new Error(`instance row without ${column.name}`);
    const value = row[column.name];
    instance[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return instance as Instance;
}

const postingValues = (posting: PreparedLines) => [
  posting.lines.map((line) => line.accountId),
  posting.lines.map((line) => String(line.amountMicros)),
  posting.inline?.accountId ?? null,
  posting.inline ? String(posting.inline.amountMicros) : null,
];

const RENT_AT: PostingMarkers = {
  accounts: '$11',
  amounts: '$12',
  moveAccount: '$13',
  moveAmount: '$14',
};

/**
 * A rent in one statement: a unit taken at the quoted rate (listings' own reserve, with every
 * guard), the booked instance inserted, and its posting written with the wallet's move (the
 * ledger's own CTEs). No unit, no instance, no posting; a wallet that cannot pay is not
 * moved, and the caller rolls its transaction back. The memo is the one a rent has always
 * had: "Rental <id>: <hours> h of <model> held in escrow, storage add-on charged".
 */
const rentStatement = compiledSql<
  Record<string, unknown> &
    PostingOutcomeRow & {
      listing_model: string;
      listing_location: string;
      listing_is_demo_host: boolean;
      listing_company_name: string;
    }
>(
  'instances_rent',
  `with l as (
    ${reserveUnitSql({ id: '$1', rate: '$2', providerId: '$3', renterId: '$4' })}
  ), i as (
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, state_changed_at, duration_hours, hourly_rate_micros, booked_cost_micros,
      storage_fee_micros, start_time, ends_at, provisioning_deadline)
    select $4::uuid, l.id, l.provider_id, l.host_id, 'marketplace', 'booked', 'provisioning',
      $8::timestamptz, $5::int, $2::bigint, $6::bigint, $7::bigint, $8::timestamptz,
      $9::timestamptz, $10::timestamptz
    from l
    returning *
  ), ${postingCtes(
    `select 'rental_start', 'Rental ' || i.id || ': ' || $5::int || ' h of ' || l.model
      || ' held in escrow, storage add-on charged', null::text, 'rental:' || i.id from i, l`,
    RENT_AT,
  )}
  select i.*, l.model as listing_model, l.location as listing_location,
    l.is_demo_host as listing_is_demo_host, l.company_name as listing_company_name,
    ${postingOutcome(RENT_AT)}
  from i, l`,
);

const SETTLE_AT: PostingMarkers = {
  accounts: '$6',
  amounts: '$7',
  moveAccount: '$8',
  moveAmount: '$9',
};

/**
 * A booked instance's settlement in one statement, its row locked by the caller: the
 * instance ended (only from a live state), its unit back when it held one, and the posting
 * with at most one cached balance moved. The unit goes back before the posting moves a
 * balance, the order every rent keeps (listing, then account).
 */
const settleStatement = compiledSql<Record<string, unknown> & PostingOutcomeRow>(
  'instances_settle_booked',
  `with i as (
    update instances set generation = generation + 1, status = $10, state_changed_at = $11::timestamptz,
      provisioning_progress = null, end_time = $12::timestamptz, used_seconds = $13::int,
      used_cost_micros = $14::bigint, refund_micros = $15::bigint,
      platform_fee_micros = $16::bigint, end_reason = $17
    where id = $18::int and status = any($19::text[])
    returning *
  ), r as (
    ${releaseUnitSql('$1', '$2::boolean and exists (select 1 from i)')}
    returning gpu_listings.id
  ), ${postingCtes('select $3::text, $4::text, $20::text, $5::text from i left join r on true', SETTLE_AT)}
  select i.*, ${postingOutcome(SETTLE_AT)} from i`,
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
  ): Promise<{ instance: Instance; recipient: AlertRecipient } | null> {
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

  /**
   * Rents a unit of a listing on the booked plan in one statement (rentStatement). Null when
   * the unit could not be taken (nothing written); `posted.moved` false when the wallet could
   * not pay (the caller must roll back).
   */
  async rentBooked(
    conn: Conn,
    rent: {
      listingId: number;
      rateMicros: bigint;
      providerId: number;
      userId: string;
      hours: number;
      bookedMicros: bigint;
      storageFeeMicros: bigint;
      at: Date;
      endsAt: Date;
      provisioningDeadline: Date;
      /** The wallet's line and the system accounts' (one cached balance moves). */
      posting: PreparedLines;
    },
  ): Promise<{ row: InstanceRow; posted: ReturnType<typeof readPostingOutcome> } | null> {
    if (rent.posting.after.length > 0) throw new Error('a rent moves one cached balance');
    const [row] = await rentStatement(conn, [
      rent.listingId,
      String(rent.rateMicros),
      rent.providerId,
      rent.userId,
      rent.hours,
      String(rent.bookedMicros),
      String(rent.storageFeeMicros),
      rent.at.toISOString(),
      rent.endsAt.toISOString(),
      rent.provisioningDeadline.toISOString(),
      ...postingValues(rent.posting),
    ]);
    if (!row) return null;
    return {
      row: {
        instance: instanceFromRow(row),
        listing: {
          model: row.listing_model,
          location: row.listing_location,
          isDemoHost: row.listing_is_demo_host,
        },
        provider: { companyName: row.listing_company_name },
      },
      posted: readPostingOutcome(row, rent.posting.inline !== null),
    };
  },

  /**
   * Ends a booked instance with its settlement in one statement (settleStatement). Null when
   * it was no longer in a live state (nothing written).
   */
  async settleBooked(
    conn: Conn,
    settle: {
      id: number;
      listingId: number;
      releaseUnit: boolean;
      to: InstanceState;
      at: Date;
      changes: {
        endTime: Date;
        usedSeconds: number;
        usedCostMicros: bigint;
        refundMicros: bigint;
        platformFeeMicros: bigint;
        endReason: string;
      };
      from: readonly InstanceState[];
      posting: PreparedPosting;
    },
  ): Promise<{ instance: Instance; posted: ReturnType<typeof readPostingOutcome> } | null> {
    const { changes, posting } = settle;
    const [row] = await settleStatement(conn, [
      settle.listingId,
      settle.releaseUnit,
      posting.head.kind,
      posting.head.memo,
      posting.head.reference,
      ...postingValues(posting),
      settle.to,
      settle.at.toISOString(),
      changes.endTime.toISOString(),
      changes.usedSeconds,
      String(changes.usedCostMicros),
      String(changes.refundMicros),
      String(changes.platformFeeMicros),
      changes.endReason,
      settle.id,
      settle.from,
      posting.head.idempotencyKey,
    ]);
    if (!row) return null;
    return {
      instance: instanceFromRow(row),
      posted: readPostingOutcome(row, posting.inline !== null),
    };
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
