import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema';

/**
 * What the ledger's entries add up to, read for people: a wallet's entries and sums (the
 * credits page, the account summary), a provider's earnings per instance. Postings and
 * balances are ./repo.ts.
 */
export const ledgerSumsRepo = {
  /** A user's wallet entries, newest first, with the transaction that explains each. */
  async walletEntries(conn: Conn, userId: string, limit: number) {
    return conn
      .select({
        id: ledgerEntries.id,
        amountMicros: ledgerEntries.amountMicros,
        kind: ledgerTransactions.kind,
        memo: ledgerTransactions.memo,
        reference: ledgerTransactions.reference,
        createdAt: ledgerTransactions.createdAt,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(eq(ledgerAccounts.kind, 'wallet'), eq(ledgerAccounts.userId, userId)))
      .orderBy(desc(ledgerEntries.id))
      .limit(limit);
  },

  /**
   * A user's wallet entries caused by these references (e.g. "instance:12", "rental:12"),
   * summed per transaction kind: how many and their total.
   */
  async walletSumsByKind(conn: Conn, userId: string, references: string[]) {
    const rows = await conn
      .select({
        kind: ledgerTransactions.kind,
        count: sql<number>`count(*)::int`,
        total: sql<string>`sum(${ledgerEntries.amountMicros})::text`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          inArray(ledgerTransactions.reference, references),
          eq(ledgerAccounts.kind, 'wallet'),
          eq(ledgerAccounts.userId, userId),
        ),
      )
      .groupBy(ledgerTransactions.kind);
    return rows.map((row) => ({
      kind: row.kind,
      count: Number(row.count),
      totalMicros: BigInt(row.total ?? '0'),
    }));
  },

  /**
   * A user's wallet entries from instances ("instance:<id>", "rental:<id>"), summed per
   * reference, UTC day, kind and sign, with how many of them charged compute (a metered
   * minute's memo says so): the lines of an invoice (invoices/service.ts). Either these
   * references, or every instance posting within [from, to).
   */
  async walletDays(
    conn: Conn,
    userId: string,
    which: { references: string[] } | { from: Date; to: Date },
  ) {
    const day = sql<string>`to_char(${ledgerTransactions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
    const sign = sql<number>`sign(${ledgerEntries.amountMicros})::int`;
    const rows = await conn
      .select({
        reference: ledgerTransactions.reference,
        day,
        kind: ledgerTransactions.kind,
        sign,
        count: sql<number>`count(*)::int`,
        computeCount: sql<number>`(count(*) filter (where ${ledgerTransactions.memo} like '%compute%'))::int`,
        total: sql<string>`sum(${ledgerEntries.amountMicros})::text`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          eq(ledgerAccounts.kind, 'wallet'),
          eq(ledgerAccounts.userId, userId),
          'references' in which
            ? inArray(ledgerTransactions.reference, which.references)
            : and(
                gte(ledgerTransactions.createdAt, which.from),
                lt(ledgerTransactions.createdAt, which.to),
                sql`(${ledgerTransactions.reference} like 'instance:%' or ${ledgerTransactions.reference} like 'rental:%')`,
              ),
        ),
      )
      .groupBy(ledgerTransactions.reference, day, ledgerTransactions.kind, sign)
      .orderBy(day, ledgerTransactions.reference, ledgerTransactions.kind);
    return rows.map((row) => ({
      reference: row.reference ?? '',
      day: row.day,
      kind: row.kind,
      count: Number(row.count),
      computeCount: Number(row.computeCount),
      totalMicros: BigInt(row.total ?? '0'),
    }));
  },

  /**
   * What a provider's earnings account took per transaction reference and kind: every posting
   * of its instances ("instance:<id>", "rental:<id>"), outage credits paid out included.
   */
  async earningsByReference(conn: Conn, providerId: number) {
    const rows = await conn
      .select({
        reference: ledgerTransactions.reference,
        kind: ledgerTransactions.kind,
        total: sql<string>`sum(${ledgerEntries.amountMicros})::text`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          eq(ledgerAccounts.kind, 'provider_earnings'),
          eq(ledgerAccounts.providerId, providerId),
        ),
      )
      .groupBy(ledgerTransactions.reference, ledgerTransactions.kind);
    return rows.map((row) => ({
      reference: row.reference,
      kind: row.kind,
      totalMicros: BigInt(row.total ?? '0'),
    }));
  },

  /** Sum of a user's wallet entries, split by whether the transaction kind is a top-up. */
  async walletSums(
    conn: Conn,
    userId: string,
    topUpKinds: string[],
    range: { from?: Date; to?: Date } = {},
  ): Promise<{ topUps: bigint; other: bigint }> {
    const isTopUp = inArray(ledgerTransactions.kind, topUpKinds);
    const rows = await conn
      .select({
        topUps: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}) filter (where ${isTopUp}), 0)::text`,
        other: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}) filter (where not ${isTopUp}), 0)::text`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          eq(ledgerAccounts.kind, 'wallet'),
          eq(ledgerAccounts.userId, userId),
          range.from ? gte(ledgerTransactions.createdAt, range.from) : undefined,
          range.to ? lt(ledgerTransactions.createdAt, range.to) : undefined,
        ),
      );
    return { topUps: BigInt(rows[0]?.topUps ?? '0'), other: BigInt(rows[0]?.other ?? '0') };
  },
};
