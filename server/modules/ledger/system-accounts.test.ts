import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { ledgerService } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const systemRow = (kind: 'escrow' | 'payment_clearing' | 'promotions' | 'platform_revenue') =>
  and(
    eq(ledgerAccounts.kind, kind),
    isNull(ledgerAccounts.userId),
    isNull(ledgerAccounts.providerId),
  );

describe('system accounts', () => {
  it('exist from the first migration on', async () => {
    for (const kind of ['escrow', 'payment_clearing', 'promotions', 'platform_revenue'] as const) {
      const rows = await t.database.db.select().from(ledgerAccounts).where(systemRow(kind));
      expect(rows).toHaveLength(1);
    }
  });

  it('an account created in a transaction that rolls back is not remembered', async () => {
    const db = t.database.db;
    await db.delete(ledgerAccounts).where(systemRow('escrow'));
    const cacheKey = {};
    let createdInside = -1;
    await expect(
      db.transaction(async (tx) => {
        createdInside = await ledgerService.systemAccount(tx, 'escrow', cacheKey);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const id = await ledgerService.systemAccount(db, 'escrow', cacheKey);
    expect(id).not.toBe(createdInside);
    expect(await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, id))).toHaveLength(1);
  });
});
