import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minuteChargeMicros } from '../../../../shared/rules/metering';
import type { Database } from '../../../db/client';
import { openTestDatabase } from '../../../test/database';
import { minutePriceSql } from './metered-sql';

/**
 * One price rule (issue 41, item 4; ADR 026): a minute's price in SQL — what the low-balance
 * warning reads as a renter's hourly spend — is the shared rule's, compute only while running.
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("a minute's price in SQL", () => {
  it('agrees with shared/rules/metering.ts on random rates, disks and states', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 1_000_000_000n }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.boolean(),
        async (rate, storageGb, running) => {
          const result = await database.db.execute(
            sql`select (${minutePriceSql(sql`${String(rate)}::bigint`, sql`${storageGb}::int`, sql`${running}::boolean`)})::text as micros`,
          );
          const got = BigInt(
            (result as unknown as { rows: { micros: string }[] }).rows[0]?.micros ?? '-1',
          );
          const { computeMicros, storageMicros } = minuteChargeMicros(rate, storageGb, running);
          expect(got).toBe(computeMicros + storageMicros);
        },
      ),
      { numRuns: 200 },
    );
  });
});
