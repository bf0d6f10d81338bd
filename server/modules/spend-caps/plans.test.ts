import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { apiKeys } from '../../db/schema';
import { createUser } from '../../seed/factories';
import { describeOnPostgres, openTestDatabase } from '../../test/database';
import { ledgerService } from '../ledger/service';
import { spendCapsService } from './service';

const describeHere = describeOnPostgres(
  'server/modules/spend-caps/plans.test.ts',
  'it reads PostgreSQL plan caches',
);

/**
 * A charge's posting with its spend counters (spend-caps/repo.ts, postAndAddWithCaps) is planned
 * once a connection, not on every charge (issue 43): PostgreSQL keeps a named statement's
 * generic plan only when its estimate is no worse than a plan for the values, and an unbounded
 * `unnest` of a parameter is ten rows to it. Read from the connection's own plan cache
 * (`pg_prepared_statements`), so the test runs every charge on one connection: a transaction.
 */
describeHere('a charge with spend counters (PostgreSQL plans)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('takes the generic plan after five, for an account (two counters) and a key (four)', async () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const plans = await database.db.transaction(async (tx) => {
      const user = await createUser(tx, { credits: '100.00' });
      const [key] = await tx
        .insert(apiKeys)
        .values({
          userId: user.id,
          name: 'plans',
          prefix: 'rg_plans',
          keyHash: `hash-${user.id}`,
          permissions: ['write'],
        })
        .returning({ id: apiKeys.id });
      if (!key) throw new Error('no key');
      const wallet = await ledgerService.walletId(tx, user.id);
      if (wallet === null) throw new Error('no wallet');
      const escrow = await ledgerService.systemAccount(tx, 'escrow');
      const revenue = await ledgerService.systemAccount(tx, 'platform_revenue');
      for (const apiKeyId of [null, key.id]) {
        for (let i = 0; i < 8; i += 1) {
          const id = await spendCapsService.postCounted(
            tx,
            {
              kind: 'rental_start',
              memo: `plans ${i}`,
              reference: `plans:${apiKeyId ?? 'web'}:${i}`,
              lines: [
                { accountId: wallet, amountMicros: -1_100_000n },
                { accountId: escrow, amountMicros: 1_000_000n, system: true },
                { accountId: revenue, amountMicros: 100_000n, system: true },
              ],
            },
            { userId: user.id, apiKeyId },
            now,
          );
          expect(id).not.toBeNull();
        }
      }
      const result = (await tx.execute(
        sql`select name, generic_plans::int as generic, custom_plans::int as custom
            from pg_prepared_statements where name like 'spend_caps_post_and_add%' order by name`,
      )) as unknown as { rows: { name: string; generic: number; custom: number }[] };
      return result.rows;
    });
    // Three lines; two counters (the account's day and month), then four (and the key's).
    expect(plans.map((p) => p.name)).toEqual([
      'spend_caps_post_and_add_3_2',
      'spend_caps_post_and_add_3_4',
    ]);
    for (const p of plans) {
      expect(p.custom, p.name).toBeLessThanOrEqual(5);
      expect(p.generic, p.name).toBeGreaterThanOrEqual(3);
    }
  });
  it("writes the event triggers' dollars in a body the planner inlines, as before", async () => {
    // 0044_dollars_inlined.sql: `to_char` (STABLE) kept the function from being inlined, so
    // each trigger's call was a SQL function planned again in every transaction.
    const plan = (await database.db.execute(
      sql`explain (verbose, format json) select rentgpu_dollars(balance_micros) from ledger_accounts`,
    )) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
    const text = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);
    expect(text).toContain('round(');
    expect(text).not.toContain('rentgpu_dollars');
    const written = (await database.db.execute(
      sql`select rentgpu_dollars(x) as d from unnest(array[0, 5, -5, 12500000, -1000000, 123456789012]::bigint[]) x`,
    )) as unknown as { rows: { d: string }[] };
    expect(written.rows.map((r) => r.d)).toEqual([
      '0.000000',
      '0.000005',
      '-0.000005',
      '12.500000',
      '-1.000000',
      '123456.789012',
    ]);
  });
});
