import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Conn } from '../../db/client';
import { compiledSql } from '../../db/compiled';
import { apiKeys, spendPeriods, users } from '../../db/schema';
import {
  type PostingMarkers,
  type PostingOutcomeRow,
  postingCtes,
  postingOutcome,
  postingValues,
} from '../ledger/posting-sql';
import type { PreparedPosting } from '../ledger/service';

/** One counter of spend: who, which scope ('account' or a key's id), which period. */
export interface PeriodKey {
  userId: string;
  scope: string;
  period: 'day' | 'month';
  startsAt: Date;
}

export interface PeriodRow extends PeriodKey {
  spentMicros: bigint;
  warnedAt: Date | null;
}

const toRow = (r: {
  user_id: string;
  scope: string;
  period: string;
  starts_at: Date | string;
  spent_micros: string | bigint;
  warned_at: Date | string | null;
}): PeriodRow => ({
  userId: r.user_id,
  scope: r.scope,
  period: r.period as PeriodRow['period'],
  startsAt: new Date(r.starts_at),
  spentMicros: BigInt(r.spent_micros),
  warnedAt: r.warned_at === null ? null : new Date(r.warned_at),
});

const valuesOf = (rows: (PeriodKey & { micros: bigint })[]) =>
  sql.join(
    rows.map(
      (r) =>
        sql`(${r.userId}::uuid, ${r.scope}::text, ${r.period}::text, ${r.startsAt.toISOString()}::timestamptz, ${String(r.micros)}::bigint)`,
    ),
    sql`, `,
  );

type AddedRow = Parameters<typeof toRow>[0];

/**
 * An account's cap for a period as its settings store it (the billing group of
 * shared/contracts/settings.ts: unchecked JSON, a dollar string or null).
 */
const accountCapSql = {
  day: sql<unknown>`${users.settings}->'billing'->'dailySpendCap'`,
  month: sql<unknown>`${users.settings}->'billing'->'monthlySpendCap'`,
} satisfies Record<PeriodKey['period'], unknown>;

/** Counters once each (amounts of the same counter added), in a fixed order: a statement may not touch a row twice. */
function mergedInOrder(rows: (PeriodKey & { micros: bigint })[]) {
  const merged = new Map<string, PeriodKey & { micros: bigint }>();
  for (const r of rows) {
    const key = `${r.userId}|${r.scope}|${r.period}|${r.startsAt.toISOString()}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, micros: seen.micros + r.micros } : r);
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
}

/**
 * `with added as (…)`: adds to counters (created at 0 when missing), one row per counter in a
 * fixed order (a statement may not touch a row twice), each answering its new total.
 */
function addStatement(rows: (PeriodKey & { micros: bigint })[]) {
  const ordered = mergedInOrder(rows);
  return sql`with added as (
      insert into ${spendPeriods} (user_id, scope, period, starts_at, spent_micros)
      select v.* from (values ${valuesOf(ordered)}) as v(user_id, scope, period, starts_at, micros)
      on conflict (user_id, scope, period, starts_at)
        do update set spent_micros = ${spendPeriods}.spent_micros + excluded.spent_micros
      returning user_id, scope, period, starts_at, spent_micros, warned_at)`;
}

/** Each counter `added` answered with the cap its scope has for its period (addWithCaps). */
const withCaps = sql`select a.*,
        case when a.scope = 'account' then (
          select case a.period when 'day' then ${accountCapSql.day} else ${accountCapSql.month} end
          from ${users} where ${users.id} = a.user_id) end as account_cap,
        case when a.scope <> 'account' then (
          select case a.period when 'day' then ${apiKeys.dailyCapMicros}
            else ${apiKeys.monthlyCapMicros} end
          from ${apiKeys} where ${apiKeys.id} = a.scope::uuid) end::text as key_cap_micros
      from added a`;

type AddedWithCapsRow = AddedRow & { account_cap: unknown; key_cap_micros: string | null };

const POSTED_AT: PostingMarkers = {
  accounts: '$5',
  amounts: '$6',
  moveAccount: '$7',
  moveAmount: '$8',
};

/**
 * A charge's posting and its spend counters with their caps, as one statement (postAndAddWithCaps):
 * the posting's values at $1–$8, the counters as five arrays ($9–$13, merged and in order).
 * Built with drizzle on every rent it cost the server's thread about half a millisecond, and
 * PostgreSQL a plan (issue 43). Named, so PostgreSQL may keep one plan a connection — but it
 * keeps a generic plan only when its estimate is no worse than a plan for the values, and
 * without the values an array's `unnest` is ten rows: the statement was planned again on every
 * rent (`pg_stat_statements`: 620 plans for 600 calls, about 1 ms each under load). So its text
 * is one per shape — so many ledger lines, so many counters — each array read through a
 * `limit` of exactly its length: the generic plan's estimate is the custom plan's, and after
 * PostgreSQL's five custom plans the statement is planned no more. Shapes are few (a charge
 * has two or three lines; an account's two periods, and a key's two); past MAX_SHAPE lines or
 * counters the unbounded text stands.
 */
const MAX_SHAPE = 8;
const postAndAddStatements = new Map<
  string,
  ReturnType<typeof compiledSql<AddedWithCapsRow & PostingOutcomeRow>>
>();

function postAndAddStatementFor(lines: number, counters: number) {
  const shaped = lines <= MAX_SHAPE && counters <= MAX_SHAPE;
  const key = shaped ? `${lines}_${counters}` : 'any';
  let statement = postAndAddStatements.get(key);
  if (statement) return statement;
  const counterRows = `unnest($9::uuid[], $10::text[], $11::text[], $12::timestamptz[], $13::bigint[])`;
  statement = compiledSql<AddedWithCapsRow & PostingOutcomeRow>(
    `spend_caps_post_and_add_${key}`,
    `with ${postingCtes('values ($1::text, $2::text, $3::text, $4::text)', POSTED_AT, shaped ? lines : undefined)},
  added as (
    insert into spend_periods (user_id, scope, period, starts_at, spent_micros)
    select v.* from ${shaped ? `(select * from ${counterRows} limit ${counters})` : counterRows}
      as v(user_id, scope, period, starts_at, micros)
    -- The posting moves its wallet first: the counters read its move, so their rows are
    -- locked after the wallet's, the order of every other charge.
    cross join (select count(*) from b) as moved_first
    on conflict (user_id, scope, period, starts_at)
      do update set spent_micros = spend_periods.spent_micros + excluded.spent_micros
    returning user_id, scope, period, starts_at, spent_micros, warned_at),
  caps as (${new PgDialect().sqlToQuery(withCaps).sql})
  select c.*, ${postingOutcome(POSTED_AT)} from (select 1) as one left join caps c on true`,
  );
  postAndAddStatements.set(key, statement);
  return statement;
}

const withCapsRow = (r: AddedWithCapsRow) => ({
  ...toRow(r),
  accountCap: r.account_cap,
  keyCapMicros: r.key_cap_micros === null ? null : BigInt(r.key_cap_micros),
});

/** The statements of spend caps: counters per period, the caps of accounts and keys. */
export const spendCapsRepo = {
  /** The counters of these users for periods starting at these instants. */
  async periods(conn: Conn, userIds: string[], starts: Date[]): Promise<PeriodRow[]> {
    if (userIds.length === 0) return [];
    const rows = await conn
      .select()
      .from(spendPeriods)
      .where(
        and(
          inArray(spendPeriods.userId, userIds),
          inArray(
            spendPeriods.startsAt,
            starts.map((s) => s),
          ),
        ),
      );
    return rows.map((r) => ({ ...r, period: r.period as PeriodRow['period'] }));
  },

  /**
   * Adds to counters (created at 0 when missing) and returns each one's new total: the row
   * lock the update takes makes concurrent additions queue, so the totals never miss one.
   */
  async add(conn: Conn, rows: (PeriodKey & { micros: bigint })[]): Promise<PeriodRow[]> {
    if (rows.length === 0) return [];
    const result = await conn.execute(sql`${addStatement(rows)}
      select * from added`);
    return (result as unknown as { rows: AddedRow[] }).rows.map(toRow);
  },

  /**
   * `add`, answering with each counter the cap its scope has for its period, in the same
   * statement: the account's as its settings store it (unchecked JSON), or the API key's.
   */
  async addWithCaps(
    conn: Conn,
    rows: (PeriodKey & { micros: bigint })[],
  ): Promise<(PeriodRow & { accountCap: unknown; keyCapMicros: bigint | null })[]> {
    if (rows.length === 0) return [];
    const result = await conn.execute(sql`${addStatement(rows)}
      ${withCaps}`);
    return (result as unknown as { rows: AddedWithCapsRow[] }).rows.map(withCapsRow);
  },

  /**
   * A posting that moves at most one cached balance (`inline`: its wallet) and `add`
   * with caps, in one statement: the wallet is moved before the counters are locked. Every
   * counter row comes back with the posting's outcome (`postingOutcome`).
   */
  async postAndAddWithCaps(
    conn: Conn,
    posting: PreparedPosting,
    rows: (PeriodKey & { micros: bigint })[],
  ): Promise<{
    added: (PeriodRow & { accountCap: unknown; keyCapMicros: bigint | null })[];
    posted: PostingOutcomeRow;
  }> {
    const ordered = mergedInOrder(rows);
    const all = await postAndAddStatementFor(posting.lines.length, ordered.length)(conn, [
      posting.head.kind,
      posting.head.memo,
      posting.head.idempotencyKey,
      posting.head.reference,
      ...postingValues(posting),
      ordered.map((r) => r.userId),
      ordered.map((r) => r.scope),
      ordered.map((r) => r.period),
      ordered.map((r) => r.startsAt.toISOString()),
      ordered.map((r) => String(r.micros)),
    ]);
    const first = all[0];
    if (!first) throw new Error('posting with spend counters answered no row');
    return {
      added: all.filter((r) => r.user_id !== null).map(withCapsRow),
      posted: first,
    };
  },

  /** Marks a counter's 80% warning as sent; true only for the call that marked it. */
  async markWarned(conn: Conn, key: PeriodKey, at: Date): Promise<boolean> {
    const rows = await conn
      .update(spendPeriods)
      .set({ warnedAt: at })
      .where(
        and(
          eq(spendPeriods.userId, key.userId),
          eq(spendPeriods.scope, key.scope),
          eq(spendPeriods.period, key.period),
          eq(spendPeriods.startsAt, key.startsAt),
          isNull(spendPeriods.warnedAt),
        ),
      )
      .returning({ userId: spendPeriods.userId });
    return rows.length === 1;
  },

  /** The account caps of these users as stored (settings' billing group), users with one only. */
  accountCapsOf(conn: Conn, userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    const { day: daily, month: monthly } = accountCapSql;
    return conn
      .select({ id: users.id, daily, monthly })
      .from(users)
      .where(
        and(
          inArray(users.id, userIds),
          sql`(jsonb_typeof(${daily}) = 'string' or jsonb_typeof(${monthly}) = 'string')`,
        ),
      );
  },

  /** The caps of these API keys. */
  keyCapsOf(conn: Conn, keyIds: string[]) {
    if (keyIds.length === 0) return Promise.resolve([]);
    return conn
      .select({
        id: apiKeys.id,
        userId: apiKeys.userId,
        dailyCapMicros: apiKeys.dailyCapMicros,
        monthlyCapMicros: apiKeys.monthlyCapMicros,
      })
      .from(apiKeys)
      .where(inArray(apiKeys.id, keyIds));
  },

  /** Sets a key's caps (the user's own, not revoked); false when there is no such key. */
  async setKeyCaps(
    conn: Conn,
    userId: string,
    keyId: string,
    caps: { dailyCapMicros: bigint | null; monthlyCapMicros: bigint | null },
  ): Promise<boolean> {
    const rows = await conn
      .update(apiKeys)
      .set(caps)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return rows.length === 1;
  },
};
