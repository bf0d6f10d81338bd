import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { compiled, compiledSql } from '../../db/compiled';
import { ledgerAccounts } from '../../db/schema';
import {
  type PostingMarkers,
  type PostingOutcomeRow,
  postingCtes,
  postingOutcome,
  readPostingOutcome,
} from './posting-sql';

export type SystemAccountKind = 'platform_revenue' | 'payment_clearing' | 'promotions' | 'escrow';

/** The one statement every posting runs per tracked account (built once: server/db/compiled.ts). */
const moveCachedBalance = compiled('ledger_move_cached_balance', (conn) =>
  conn
    .update(ledgerAccounts)
    .set({
      balanceMicros: sql`${ledgerAccounts.balanceMicros} + ${sql.placeholder('amount')}::bigint`,
    })
    .where(
      and(
        eq(ledgerAccounts.id, sql.placeholder('id')),
        eq(ledgerAccounts.tracksBalance, true),
        sql`(${ledgerAccounts.kind} <> 'wallet' or ${ledgerAccounts.balanceMicros} + ${sql.placeholder('amount')}::bigint >= 0)`,
      ),
    )
    .returning({ balance: ledgerAccounts.balanceMicros }),
);

const MOVING_ONE_AT: PostingMarkers = {
  accounts: '$5',
  amounts: '$6',
  moveAccount: '$7',
  moveAmount: '$8',
};

/**
 * A posting whose lines move at most one cached balance, in one statement: the transaction,
 * its entries (any number of lines: the text never changes), and the move. With one row to
 * lock there is no lock order to keep.
 */
const postMovingOne = compiledSql<PostingOutcomeRow>(
  'ledger_post_moving_one',
  `with ${postingCtes('values ($1, $2, $3, $4)', MOVING_ONE_AT)}
  select ${postingOutcome(MOVING_ONE_AT)}`,
);

/** The id of the account `where` picks (the first), or undefined when there is none. */
async function accountIdWhere(conn: Conn, where: SQL | undefined): Promise<number | undefined> {
  const rows = await conn
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(where)
    .limit(1);
  return rows[0]?.id;
}

export const ledgerRepo = {
  async findWallet(conn: Conn, userId: string) {
    const rows = await conn
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'wallet'), eq(ledgerAccounts.userId, userId)))
      .limit(1);
    return rows[0] ?? null;
  },

  async findWallets(conn: Conn, userIds: string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await conn
      .select({ id: ledgerAccounts.id, userId: ledgerAccounts.userId })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'wallet'), inArray(ledgerAccounts.userId, userIds)));
    return new Map(rows.map((r) => [r.userId ?? '', r.id]));
  },

  async insertWallet(conn: Conn, userId: string): Promise<number> {
    const found = await accountIdWhere(
      conn,
      and(eq(ledgerAccounts.kind, 'wallet'), eq(ledgerAccounts.userId, userId)),
    );
    if (found !== undefined) return found;
    const rows = await conn
      .insert(ledgerAccounts)
      .values({ kind: 'wallet', userId, tracksBalance: true })
      .onConflictDoNothing()
      .returning({ id: ledgerAccounts.id });
    if (rows[0]) return rows[0].id;
    const existing = await this.findWallet(conn, userId);
    if (!existing) throw new Error(`wallet for ${userId} vanished`);
    return existing.id;
  },

  async findSystemAccount(conn: Conn, kind: SystemAccountKind): Promise<number | null> {
    const id = await accountIdWhere(
      conn,
      and(
        eq(ledgerAccounts.kind, kind),
        isNull(ledgerAccounts.userId),
        isNull(ledgerAccounts.providerId),
      ),
    );
    return id ?? null;
  },

  async findOrCreateSystemAccount(conn: Conn, kind: SystemAccountKind): Promise<number> {
    const where = and(
      eq(ledgerAccounts.kind, kind),
      isNull(ledgerAccounts.userId),
      isNull(ledgerAccounts.providerId),
    );
    const found = await accountIdWhere(conn, where);
    if (found !== undefined) return found;
    await conn.insert(ledgerAccounts).values({ kind, tracksBalance: false }).onConflictDoNothing();
    const again = await accountIdWhere(conn, where);
    if (again === undefined) throw new Error(`system account ${kind} could not be created`);
    return again;
  },

  async findOrCreateProviderAccount(conn: Conn, providerId: number): Promise<number> {
    const where = and(
      eq(ledgerAccounts.kind, 'provider_earnings'),
      eq(ledgerAccounts.providerId, providerId),
    );
    const found = await accountIdWhere(conn, where);
    if (found !== undefined) return found;
    await conn
      .insert(ledgerAccounts)
      .values({ kind: 'provider_earnings', providerId, tracksBalance: true })
      .onConflictDoNothing();
    const again = await accountIdWhere(conn, where);
    if (again === undefined)
      throw new Error(`earnings account of provider ${providerId} could not be created`);
    return again;
  },

  /**
   * The transaction and its entries in one statement. Returns null, writing nothing, when
   * the idempotency key was used before.
   */
  async insertTransactionWithEntries(
    conn: Conn,
    head: { kind: string; memo: string; idempotencyKey: string | null; reference: string | null },
    lines: { accountId: number; amountMicros: bigint }[],
  ): Promise<bigint | null> {
    const values = sql.join(
      lines.map((line) => sql`(${line.accountId}::int, ${String(line.amountMicros)}::bigint)`),
      sql`, `,
    );
    const result = await conn.execute(sql`
      with t as (
        insert into ledger_transactions (kind, memo, idempotency_key, reference)
        values (${head.kind}, ${head.memo}, ${head.idempotencyKey}, ${head.reference})
        on conflict do nothing
        returning id
      ), e as (
        insert into ledger_entries (transaction_id, account_id, amount_micros)
        select t.id, v.account_id, v.amount from t, (values ${values}) as v(account_id, amount)
        returning transaction_id
      )
      select id::text as id from t`);
    const row = (result as unknown as { rows: { id: string }[] }).rows[0];
    return row ? BigInt(row.id) : null;
  },

  /**
   * The transaction, its entries and the move of at most one cached balance, in one
   * statement. `id` is null, nothing written, when the idempotency key was used before;
   * `moved` false when the account tracks a balance it cannot cover (a wallet), and then
   * `balance` is what it holds.
   */
  async insertPostingMovingOne(
    conn: Conn,
    head: { kind: string; memo: string; idempotencyKey: string | null; reference: string | null },
    lines: { accountId: number; amountMicros: bigint }[],
    move: { accountId: number; amountMicros: bigint } | null,
  ): Promise<{ id: bigint | null; moved: boolean; balance: bigint }> {
    const [row] = await postMovingOne(conn, [
      head.kind,
      head.memo,
      head.idempotencyKey,
      head.reference,
      lines.map((line) => line.accountId),
      lines.map((line) => String(line.amountMicros)),
      move?.accountId ?? null,
      move ? String(move.amountMicros) : null,
    ]);
    if (!row) throw new Error('posting statement answered no row');
    return readPostingOutcome(row, move !== null);
  },

  /**
   * Many transactions (each with its own idempotency key) and their entries in one
   * statement. Returns the keys actually written; a key used before writes nothing.
   */
  async insertManyTransactionsWithEntries(
    conn: Conn,
    postings: {
      kind: string;
      memo: string;
      idempotencyKey: string;
      reference: string | null;
      lines: { accountId: number; amountMicros: bigint }[];
    }[],
  ): Promise<Set<string>> {
    if (postings.length === 0) return new Set();
    const heads = sql.join(
      postings.map((p) => sql`(${p.kind}, ${p.memo}, ${p.idempotencyKey}, ${p.reference})`),
      sql`, `,
    );
    const lines = sql.join(
      postings.flatMap((p) =>
        p.lines.map(
          (l) => sql`(${p.idempotencyKey}, ${l.accountId}::int, ${String(l.amountMicros)}::bigint)`,
        ),
      ),
      sql`, `,
    );
    const result = await conn.execute(sql`
      with t as (
        insert into ledger_transactions (kind, memo, idempotency_key, reference)
        select * from (values ${heads}) as v(kind, memo, idempotency_key, reference)
        on conflict do nothing
        returning id, idempotency_key
      ), e as (
        insert into ledger_entries (transaction_id, account_id, amount_micros)
        select t.id, l.account_id, l.amount
        from t join (values ${lines}) as l(key, account_id, amount) on l.key = t.idempotency_key
        returning transaction_id
      )
      select idempotency_key as key from t`);
    return new Set((result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key));
  },

  /** Cached balances of accounts, their rows locked in id order (no deadlocks). */
  async lockBalances(conn: Conn, accountIds: number[]): Promise<Map<number, bigint>> {
    if (accountIds.length === 0) return new Map();
    const rows = await conn
      .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceMicros })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.id, accountIds))
      .orderBy(ledgerAccounts.id)
      .for('update');
    return new Map(rows.map((row) => [row.id, row.balance]));
  },

  /**
   * Moves many cached balances in one statement (one amount per account). Returns how many
   * accounts moved: fewer than given means a wallet could not cover its amount.
   */
  async applyManyToCachedBalances(conn: Conn, amounts: Map<number, bigint>): Promise<number> {
    if (amounts.size === 0) return 0;
    const values = sql.join(
      [...amounts].map(([id, amount]) => sql`(${id}::int, ${String(amount)}::bigint)`),
      sql`, `,
    );
    const result = await conn.execute(sql`
      update ledger_accounts a set balance_micros = a.balance_micros + v.amount
      from (values ${values}) as v(id, amount)
      where a.id = v.id and a.tracks_balance
        and (a.kind <> 'wallet' or a.balance_micros + v.amount >= 0)
      returning a.id`);
    return (result as unknown as { rows: unknown[] }).rows.length;
  },

  /**
   * Moves a cached balance; a wallet never goes below zero. Returns the new balance,
   * or null when the wallet cannot cover the amount (nothing changed).
   */
  async applyToCachedBalance(
    conn: Conn,
    accountId: number,
    amountMicros: bigint,
  ): Promise<bigint | null> {
    const rows = await moveCachedBalance(conn, { id: accountId, amount: String(amountMicros) });
    return rows[0]?.balance ?? null;
  },

  async tracksBalance(
    conn: Conn,
    accountIds: number[],
  ): Promise<Map<number, { tracks: boolean; balance: bigint }>> {
    const rows = await conn
      .select({
        id: ledgerAccounts.id,
        tracks: ledgerAccounts.tracksBalance,
        balance: ledgerAccounts.balanceMicros,
      })
      .from(ledgerAccounts)
      .where(sql`${ledgerAccounts.id} in ${accountIds}`);
    return new Map(rows.map((row) => [row.id, { tracks: row.tracks, balance: row.balance }]));
  },
};
