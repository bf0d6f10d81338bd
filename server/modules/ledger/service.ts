import type { Conn, Tx } from '../../db/client';
import { insufficientCredits } from '../../lib/errors';
import { historySql } from './history-sql';
import type { LedgerKind } from './kinds';
import { ledgerRepo, type SystemAccountKind } from './repo';
import { ledgerSumsRepo } from './sums-repo';

export interface LedgerLine {
  accountId: number;
  amountMicros: bigint;
  /** Set for a shared system account (from systemAccount): it keeps no cached balance. */
  system?: boolean;
}

export interface Posting {
  /** Its kind (ledger/kinds.ts): what it does to a wallet and what the spend caps make of it. */
  kind: LedgerKind;
  memo: string;
  lines: LedgerLine[];
  /** A second posting with the same key is a no-op (retries, webhooks, double clicks). */
  idempotencyKey?: string;
  /** What caused it, e.g. "rental:42". */
  reference?: string;
}

// System account ids never change once created; remember them per database.
const systemIds = new WeakMap<object, Map<SystemAccountKind, number>>();

export const ledgerService = {
  openWallet(conn: Conn, userId: string) {
    return ledgerRepo.insertWallet(conn, userId);
  },

  /** The id of a shared system account, created on first use. */
  async systemAccount(conn: Conn, kind: SystemAccountKind, cacheKey?: object): Promise<number> {
    const cache = cacheKey
      ? (systemIds.get(cacheKey) ?? new Map<SystemAccountKind, number>())
      : null;
    const cached = cache?.get(kind);
    if (cached !== undefined) return cached;
    const existing = await ledgerRepo.findSystemAccount(conn, kind);
    // Only an account that already existed is remembered: one created now, inside a
    // transaction that may still roll back, could vanish and poison the cache.
    if (existing === null) return ledgerRepo.findOrCreateSystemAccount(conn, kind);
    if (cache && cacheKey) {
      cache.set(kind, existing);
      systemIds.set(cacheKey, cache);
    }
    return existing;
  },

  providerAccount(conn: Conn, providerId: number) {
    return ledgerRepo.findOrCreateProviderAccount(conn, providerId);
  },

  walletAccount(conn: Conn, userId: string) {
    return ledgerRepo.insertWallet(conn, userId);
  },

  /**
   * Writes one balanced transaction inside the caller's database transaction and moves
   * the cached balances it touches. Returns the transaction id, or null when the
   * idempotency key was used before. Throws INSUFFICIENT_CREDITS (and changes nothing
   * once the caller's transaction rolls back) when a wallet would go below zero.
   */
  async post(tx: Tx, input: Posting): Promise<bigint | null> {
    const posting = preparePosting(input);
    if (posting.after.length === 0) {
      // The common case (a rent, a refund, a top-up): one statement writes and moves.
      const done = await ledgerRepo.insertPostingMovingOne(
        tx,
        posting.head,
        posting.lines,
        posting.inline,
      );
      this.checkMoved(posting, done);
      return done.id;
    }
    const transactionId = await ledgerRepo.insertTransactionWithEntries(
      tx,
      posting.head,
      posting.lines,
    );
    if (transactionId === null) return null;
    await this.moveAfter(tx, posting);
    return transactionId;
  },

  /**
   * After a statement that wrote a prepared posting beside its own change (postingCtes):
   * INSUFFICIENT_CREDITS when its one move could not be made (the caller's transaction then
   * rolls back). The statement moves nothing else.
   */
  checkMoved(posting: PreparedLines, done: { moved: boolean; balance: bigint }): void {
    if (!done.moved && posting.inline) {
      throw insufficientCredits(-posting.inline.amountMicros, done.balance);
    }
  },

  /**
   * The cached balances a posting moves when it moves two or more, after its transaction is
   * written: one by one in a fixed order of row locks (account id), so concurrent postings
   * cannot deadlock.
   */
  async moveAfter(tx: Tx, posting: PreparedLines): Promise<void> {
    for (const line of posting.after) {
      const balance = await ledgerRepo.applyToCachedBalance(tx, line.accountId, line.amountMicros);
      if (balance !== null) continue;
      // Nothing moved: either an account without a cached balance, or a wallet that
      // cannot cover the amount.
      const account = (await ledgerRepo.tracksBalance(tx, [line.accountId])).get(line.accountId);
      if (account?.tracks) throw insufficientCredits(-line.amountMicros, account.balance);
    }
  },

  /**
   * Many postings in a few statements (the metered-minute job): each keeps its own ledger
   * transaction and idempotency key; a key used before writes nothing and moves nothing.
   * The caller locks the tracked accounts first (lockBalances) so no wallet can fall short;
   * if one would, INSUFFICIENT_CREDITS is thrown and the caller's transaction rolls back.
   * Returns the keys written.
   */
  async postMany(tx: Tx, postings: (Posting & { idempotencyKey: string })[]): Promise<Set<string>> {
    const merged = postings.map((p) => ({ ...p, lines: mergeLines(p.lines) }));
    for (const p of merged) {
      const sum = p.lines.reduce((total, line) => total + line.amountMicros, 0n);
      if (p.lines.length < 2 || sum !== 0n) {
        throw new Error(`unbalanced ledger posting ${p.kind}: sum ${sum}`);
      }
    }
    const written = await ledgerRepo.insertManyTransactionsWithEntries(
      tx,
      merged.map((p) => ({
        kind: p.kind,
        memo: p.memo,
        idempotencyKey: p.idempotencyKey,
        reference: p.reference ?? null,
        lines: p.lines,
      })),
    );
    const moves = new Map<number, bigint>();
    for (const p of merged) {
      if (!written.has(p.idempotencyKey)) continue;
      for (const line of p.lines) {
        if (line.system) continue;
        moves.set(line.accountId, (moves.get(line.accountId) ?? 0n) + line.amountMicros);
      }
    }
    for (const [id, amount] of moves) if (amount === 0n) moves.delete(id);
    const moved = await ledgerRepo.applyManyToCachedBalances(tx, moves);
    if (moved !== moves.size) throw insufficientCredits(0n, 0n);
    return written;
  },

  /** Cached balances of the given accounts, their rows locked in id order. */
  lockBalances(tx: Tx, accountIds: number[]) {
    return ledgerRepo.lockBalances(tx, accountIds);
  },

  /** A user's wallet movements, newest first (the purchase and charge history). */
  walletEntries(conn: Conn, userId: string, limit = 100) {
    return ledgerSumsRepo.walletEntries(conn, userId, limit);
  },

  /** A wallet's history lines, a metered instance's minutes grouped per day (history-sql.ts). */
  historyLines(conn: Conn, input: Parameters<typeof historySql.lines>[1]) {
    return historySql.lines(conn, input);
  },

  /** The minute charges one usage line of the history sums. */
  historyMinutes(conn: Conn, input: Parameters<typeof historySql.minutes>[1]) {
    return historySql.minutes(conn, input);
  },

  async walletId(conn: Conn, userId: string): Promise<number | null> {
    return (await ledgerRepo.findWallet(conn, userId))?.id ?? null;
  },

  /**
   * Money into a wallet from top-ups (kinds the caller names) and the net of everything
   * else (charges less refunds, negative when money went out), optionally within a range.
   */
  walletSums(
    conn: Conn,
    userId: string,
    topUpKinds: string[],
    range: { from?: Date; to?: Date } = {},
  ) {
    return ledgerSumsRepo.walletSums(conn, userId, topUpKinds, range);
  },

  /** What these references (an instance's "instance:<id>" and "rental:<id>") moved in the user's wallet, per kind. */
  walletSumsByKind(conn: Conn, userId: string, references: string[]) {
    return ledgerSumsRepo.walletSumsByKind(conn, userId, references);
  },

  /** A user's wallet entries from instances per reference, UTC day and kind (invoices). */
  walletDays(
    conn: Conn,
    userId: string,
    which: { references: string[] } | { from: Date; to: Date },
  ) {
    return ledgerSumsRepo.walletDays(conn, userId, which);
  },

  /** What a provider earned per instance reference and transaction kind (its earnings account's lines). */
  earningsByReference(conn: Conn, providerId: number) {
    return ledgerSumsRepo.earningsByReference(conn, providerId);
  },

  async walletBalance(conn: Conn, userId: string): Promise<bigint> {
    return (await ledgerRepo.findWallet(conn, userId))?.balanceMicros ?? 0n;
  },

  /** Credits a user's wallet from a system account (seed credits, bonuses, refunds by support). */
  async grant(
    tx: Tx,
    input: {
      userId: string;
      amountMicros: bigint;
      from: SystemAccountKind;
      memo: string;
      idempotencyKey?: string;
    },
  ) {
    const wallet = await ledgerRepo.insertWallet(tx, input.userId);
    const source = await ledgerRepo.findOrCreateSystemAccount(tx, input.from);
    return this.post(tx, {
      kind: 'grant',
      memo: input.memo,
      ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
      lines: [
        { accountId: source, amountMicros: -input.amountMicros },
        { accountId: wallet, amountMicros: input.amountMicros },
      ],
    });
  },
};

/**
 * A posting's lines checked (two or more, one per account, summing to zero) and split by how
 * their cached balances move: `inline` when exactly one moves (in the statement that writes
 * the posting), else `after`, in account id order (shared system accounts keep none).
 */
export interface PreparedLines {
  lines: LedgerLine[];
  inline: LedgerLine | null;
  after: LedgerLine[];
}

export interface PreparedPosting extends PreparedLines {
  head: { kind: LedgerKind; memo: string; idempotencyKey: string | null; reference: string | null };
}

export function prepareLines(kind: LedgerKind, input: LedgerLine[]): PreparedLines {
  const lines = mergeLines(input);
  const sum = lines.reduce((total, line) => total + line.amountMicros, 0n);
  if (lines.length < 2 || sum !== 0n) {
    throw new Error(`unbalanced ledger posting ${kind}: sum ${sum} over ${lines.length} lines`);
  }
  const tracked = lines.filter((line) => !line.system).sort((a, b) => a.accountId - b.accountId);
  return {
    lines,
    inline: tracked.length === 1 ? (tracked[0] ?? null) : null,
    after: tracked.length > 1 ? tracked : [],
  };
}

export function preparePosting(input: Posting): PreparedPosting {
  return {
    head: {
      kind: input.kind,
      memo: input.memo,
      idempotencyKey: input.idempotencyKey ?? null,
      reference: input.reference ?? null,
    },
    ...prepareLines(input.kind, input.lines),
  };
}

/** One line per account, zero lines dropped: a settlement may have nothing to refund. */
function mergeLines(lines: LedgerLine[]): LedgerLine[] {
  const byAccount = new Map<number, LedgerLine>();
  for (const line of lines) {
    const seen = byAccount.get(line.accountId);
    byAccount.set(line.accountId, {
      accountId: line.accountId,
      amountMicros: (seen?.amountMicros ?? 0n) + line.amountMicros,
      system: Boolean(seen?.system ?? true) && Boolean(line.system),
    });
  }
  return [...byAccount.values()].filter((line) => line.amountMicros !== 0n);
}

/** A posting's SQL, for a statement of another module that posts as one of its steps. */
export * from './posting-sql';
