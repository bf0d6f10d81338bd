import { dollarsToMicros } from '../../../shared/rules/money';
import type { Conn, Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { DEMO_USER } from '../../seed/demo-data';
import { createDemoVisitor } from '../../seed/demo-visitor';
import { ledgerService } from '../ledger/service';
import { demoRepo } from './repo';

const DEMO_CREDITS_MICROS = dollarsToMicros(DEMO_USER.credits);

/** A demo visitor's account is cleaned up after this long unused. */
export const DEMO_IDLE_MS = 24 * 60 * 60_000;

export interface DemoDeps {
  db: Db;
  clock: Clock;
}

/**
 * One demo account per Demo Login, and the cleanup of the ones left unused
 * (docs/decisions/010-a-demo-account-per-visitor.md).
 */
export function createDemoService({ db, clock }: DemoDeps) {
  /**
   * What closing a visitor's demo account adds to closing any account, inside the caller's
   * transaction: its sandbox listings go off the market and the demo credits left in the
   * wallet (up to the $100.00 granted) go back to the promotions account they came from (one
   * balanced ledger transaction, so the books stay right).
   */
  async function retire(tx: Tx, userId: string, now: Date): Promise<void> {
    await demoRepo.removeSandboxListings(tx, userId, now);
    // Demo credits only: money a visitor bought stays in the wallet, as for any closed account.
    const balance = await ledgerService.walletBalance(tx, userId);
    const left = balance < DEMO_CREDITS_MICROS ? balance : DEMO_CREDITS_MICROS;
    if (left > 0n) {
      await ledgerService.post(tx, {
        kind: 'demo_credits_expired',
        memo: 'Demo account closed: unused demo credits returned',
        reference: `demo-account:${userId}`,
        idempotencyKey: `demo-credits-expired:${userId}`,
        lines: [
          { accountId: await ledgerService.walletAccount(tx, userId), amountMicros: -left },
          {
            accountId: await ledgerService.systemAccount(tx, 'promotions'),
            amountMicros: left,
          },
        ],
      });
    }
  }

  return {
    /** A fresh demo account with its own credits and sandbox provider; returns its id. */
    async createVisitor(): Promise<string> {
      const now = clock.now();
      const { userId } = await db.transaction((tx) => createDemoVisitor(tx, now));
      return userId;
    },

    /** A demo visitor's own account (not the shared seeded one, not a closed one). */
    isVisitorAccount(conn: Conn, userId: string) {
      return demoRepo.isVisitorAccount(conn, userId);
    },

    retire,

    /** Visitors' accounts unused for a day, oldest first (read without locks). */
    findDue(now: Date, limit: number) {
      return demoRepo.findDueIds(db, now, DEMO_IDLE_MS, limit);
    },

    /** Locks a due account FOR UPDATE SKIP LOCKED; false if taken, used again, or gone. */
    async claimDue(tx: Tx, userId: string, now: Date): Promise<boolean> {
      return (await demoRepo.claimDue(tx, userId, now, DEMO_IDLE_MS)) !== null;
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
