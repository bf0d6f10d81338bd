import { type SQL, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';

/**
 * A wallet's history as people read it (issue 26): the ledger stays one posting per metered
 * minute, and here a metered instance's minute charges on one day (in the user's time zone)
 * become one line; every other movement is a line of its own. Lines are ordered by their
 * newest posting (the keyset: a page goes on below the last line's newest entry id).
 */
export type HistoryCategory = 'purchases' | 'usage' | 'refunds';

export interface HistoryLineRow {
  /** The line's newest wallet entry id: its keyset position. */
  lastId: bigint;
  amountMicros: bigint;
  kind: string;
  memo: string;
  reference: string | null;
  firstAt: Date;
  lastAt: Date;
  /** A usage line (an instance's minutes on a day): the day, and its postings counted. */
  day: string | null;
  postings: number;
  /** Postings that charged compute (the rest charged storage only). */
  computePostings: number;
}

/** Which ledger movements each filter shows; `topUpKinds` are money in (purchases, bonuses, grants). */
function categoryFilter(category: HistoryCategory | null, topUpKinds: string[]): SQL {
  const topUp = sql`kind in (${sql.join(
    topUpKinds.map((k) => sql`${k}`),
    sql`, `,
  )})`;
  if (category === 'purchases') return sql`${topUp}`;
  if (category === 'usage') return sql`not ${topUp} and amount_micros < 0`;
  if (category === 'refunds') return sql`not ${topUp} and amount_micros > 0`;
  return sql`true`;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export const historySql = {
  /**
   * One page of a wallet's history lines, newest first: those whose newest entry is below
   * `before` (all when null), `limit` of them. A line's total is the exact sum of its entries.
   */
  async lines(
    conn: Conn,
    input: {
      walletId: number;
      timeZone: string;
      category: HistoryCategory | null;
      topUpKinds: string[];
      before: bigint | null;
      limit: number | null;
    },
  ): Promise<HistoryLineRow[]> {
    const result = await conn.execute(sql`
      with moves as (
        select e.id, e.amount_micros, t.kind, t.memo, t.reference, t.created_at,
          case when t.kind = 'metered_minute' and e.amount_micros < 0 and t.reference is not null
            then to_char(t.created_at at time zone ${input.timeZone}, 'YYYY-MM-DD') end as day
        from ledger_entries e
        join ledger_transactions t on t.id = e.transaction_id
        where e.account_id = ${input.walletId}
      ), lines as (
        select max(id) as last_id, sum(amount_micros) as amount_micros,
          (array_agg(kind order by id desc))[1] as kind,
          (array_agg(memo order by id desc))[1] as memo,
          (array_agg(reference order by id desc))[1] as reference,
          min(created_at) as first_at, max(created_at) as last_at,
          max(day) as day, count(*)::int as postings,
          (count(*) filter (where memo like '%compute%'))::int as compute_postings
        from moves
        group by case when day is null then 'entry:' || id::text else reference || '@' || day end
      )
      select last_id::text, amount_micros::text, kind, memo, reference, first_at, last_at,
        day, postings, compute_postings
      from lines
      where ${categoryFilter(input.category, input.topUpKinds)}
        ${input.before === null ? sql`` : sql`and last_id < ${String(input.before)}::bigint`}
      order by last_id desc
      ${input.limit === null ? sql`` : sql`limit ${input.limit}`}`);
    return rowsOf(result).map((r) => ({
      lastId: BigInt(r.last_id as string),
      amountMicros: BigInt(r.amount_micros as string),
      kind: r.kind as string,
      memo: r.memo as string,
      reference: (r.reference as string | null) ?? null,
      firstAt: new Date(r.first_at as string),
      lastAt: new Date(r.last_at as string),
      day: (r.day as string | null) ?? null,
      postings: Number(r.postings),
      computePostings: Number(r.compute_postings),
    }));
  },

  /** The minute charges one usage line sums: an instance's on one day, oldest first. */
  async minutes(
    conn: Conn,
    input: { walletId: number; timeZone: string; reference: string; day: string },
  ) {
    const result = await conn.execute(sql`
      select e.id::text as id, e.amount_micros::text as amount_micros, t.memo, t.created_at
      from ledger_entries e
      join ledger_transactions t on t.id = e.transaction_id
      where e.account_id = ${input.walletId} and t.reference = ${input.reference}
        and t.kind = 'metered_minute' and e.amount_micros < 0
        and to_char(t.created_at at time zone ${input.timeZone}, 'YYYY-MM-DD') = ${input.day}
      order by e.id`);
    return rowsOf(result).map((r) => ({
      id: r.id as string,
      amountMicros: BigInt(r.amount_micros as string),
      memo: r.memo as string,
      createdAt: new Date(r.created_at as string),
    }));
  },
};
