import type { Conn, Tx } from '../../db/client';
import { insufficientCredits } from '../../lib/errors';
import { ledgerRepo, type SystemAccountKind } from './repo';

export interface LedgerLine {
  accountId: number;
  amountMicros: bigint;
}

export interface Posting {
  kind: string;
  memo: string;
  lines: LedgerLine[];
  /** A second posting with the same key is a no-op (retries, webhooks, double clicks). */
  idempotencyKey?: string;
}

export const ledgerService = {
  openWallet(conn: Conn, userId: string) {
    return ledgerRepo.insertWallet(conn, userId);
  },

  systemAccount(conn: Conn, kind: SystemAccountKind) {
    return ledgerRepo.findOrCreateSystemAccount(conn, kind);
  },

  /**
   * Writes one balanced transaction inside the caller's database transaction and moves
   * the cached balances it touches. Returns the transaction id, or null when the
   * idempotency key was used before. Throws INSUFFICIENT_CREDITS (and changes nothing
   * once the caller's transaction rolls back) when a wallet would go below zero.
   */
  async post(tx: Tx, posting: Posting): Promise<bigint | null> {
    const sum = posting.lines.reduce((total, line) => total + line.amountMicros, 0n);
    if (
      posting.lines.length < 2 ||
      sum !== 0n ||
      posting.lines.some((l) => l.amountMicros === 0n)
    ) {
      throw new Error(`unbalanced ledger posting ${posting.kind}: ${sum}`);
    }
    const transactionId = await ledgerRepo.insertTransaction(
      tx,
      posting.kind,
      posting.memo,
      posting.idempotencyKey ?? null,
    );
    if (transactionId === null) return null;
    await ledgerRepo.insertEntries(tx, transactionId, posting.lines);
    const accounts = await ledgerRepo.tracksBalance(
      tx,
      posting.lines.map((l) => l.accountId),
    );
    // A fixed order of row locks keeps concurrent postings free of deadlocks.
    const ordered = [...posting.lines].sort((a, b) => a.accountId - b.accountId);
    for (const line of ordered) {
      const account = accounts.get(line.accountId);
      if (!account?.tracks) continue;
      const balance = await ledgerRepo.applyToCachedBalance(tx, line.accountId, line.amountMicros);
      if (balance === null) throw insufficientCredits(-line.amountMicros, account.balance);
    }
    return transactionId;
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
