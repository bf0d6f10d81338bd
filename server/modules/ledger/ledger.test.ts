import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTransactions } from '../../db/schema';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { ledgerService } from './service';

let t: TestApp;
withTestApp({}, (app) => {
  t = app;
});

/** The database itself refuses what the ledger rules forbid, whatever the code does. */
describe('ledger guards in the database', () => {
  it('refuses an unbalanced transaction at commit', async () => {
    const { userId } = await t.signIn({ credits: '1.00' });
    const wallet = await ledgerService.walletAccount(t.database.db, userId);
    await expect(
      t.database.db.transaction(async (tx) => {
        const [txn] = await tx
          .insert(ledgerTransactions)
          .values({ kind: 'test', memo: 'unbalanced' })
          .returning();
        if (!txn) throw new Error('no transaction');
        await tx.insert(ledgerEntries).values([
          { transactionId: txn.id, accountId: wallet, amountMicros: 5n },
          { transactionId: txn.id, accountId: wallet, amountMicros: -4n },
        ]);
      }),
    ).rejects.toThrow();
  });

  it('refuses to update or delete an entry', async () => {
    await t.signIn({ credits: '3.00' });
    const refused = async (query: Promise<unknown>) => {
      const error = await query.then(
        () => null,
        (e: Error & { cause?: Error }) => e,
      );
      return String(error?.cause?.message ?? error?.message);
    };
    expect(
      await refused(
        t.database.db.execute(sql`update ledger_entries set amount_micros = amount_micros + 1`),
      ),
    ).toMatch(/append-only/);
    expect(await refused(t.database.db.execute(sql`delete from ledger_entries`))).toMatch(
      /append-only/,
    );
  });

  it('keeps a wallet from going below zero even without the code’s check', async () => {
    const { userId } = await t.signIn({ credits: '1.00' });
    await expect(
      t.database.db.execute(
        sql`update ledger_accounts set balance_micros = -1 where kind = 'wallet' and user_id = ${userId}`,
      ),
    ).rejects.toThrow();
  });

  it('a posting that would overdraw a wallet throws INSUFFICIENT_CREDITS and leaves nothing behind', async () => {
    const { userId } = await t.signIn({ credits: '1.00' });
    const before = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries);
    await expect(
      t.database.db.transaction(async (tx) => {
        const wallet = await ledgerService.walletAccount(tx, userId);
        const revenue = await ledgerService.systemAccount(tx, 'platform_revenue');
        await ledgerService.post(tx, {
          kind: 'demo_credits_expired',
          memo: 'too much',
          lines: [
            { accountId: wallet, amountMicros: -2_000_000n },
            { accountId: revenue, amountMicros: 2_000_000n },
          ],
        });
      }),
    ).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: '2.00', available: '1.00' },
    });
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('an idempotency key makes a repeated grant a no-op', async () => {
    const { userId, cookie } = await t.signIn({ credits: '0' });
    for (let i = 0; i < 3; i += 1) {
      await t.database.db.transaction((tx) =>
        ledgerService.grant(tx, {
          userId,
          amountMicros: 5_000_000n,
          from: 'promotions',
          memo: 'once',
          idempotencyKey: `grant:${userId}`,
        }),
      );
    }
    const me = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
    expect(me.json().credits).toBe('5.00');
  });
});
