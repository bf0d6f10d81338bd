import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GPU_TYPE_FILTERS, type ListingSort, SORT_OPTIONS } from '../../../shared/listing-options';
import type { Database } from '../../db/client';
import { createListing, createProvider } from '../../seed/factories';
import { describeOnPostgres, openTestDatabase } from '../../test/database';
import { pageQueryOf } from './page-statements';
import { listingsRepo } from './repo';

const describeHere = describeOnPostgres(
  'server/modules/listings/plans.test.ts',
  'it reads PostgreSQL plan caches',
);

/**
 * A marketplace page with the filter bar's values (page-query.ts) is planned once a connection,
 * not on every request (issue 43): PostgreSQL keeps a named statement's generic plan only when
 * its estimate is no worse than a plan for the values, and `gpu_count = 1` has statistics that
 * `gpu_count = $1` lacks. Read from the connection's own plan cache (`pg_prepared_statements`),
 * so every page is read on one connection: a transaction. The listings are many and uneven
 * (most of one GPU, prices spread), as a marketplace's are: on a handful of like rows the two
 * estimates agree and the test would prove nothing.
 */
describeHere('marketplace filters (PostgreSQL plans)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('takes the generic plan after five, whatever the filter values', async () => {
    const plans = await database.db.transaction(async (tx) => {
      const provider = await createProvider(tx, { companyName: 'Plans Compute' });
      const models = ['RTX 4090', 'RTX 4090', 'RTX 4090', 'A100', 'H100', '2x A100', '4x H100'];
      const memories = ['24GB', '24GB', '24GB', '80GB', '80GB', '160GB', '320GB'];
      for (let i = 0; i < 400; i += 1) {
        await createListing(tx, {
          providerId: provider.id,
          model: models[i % models.length],
          memory: memories[i % memories.length],
          hourlyRate: (0.4 + ((i * 37) % 400) / 10).toFixed(2),
        });
      }
      await tx.execute(sql`analyze gpu_listings`);
      const now = new Date();
      const asks = [
        { gpuCount: 1, minVramGb: 40, maxGpuRateMicros: 30_000_000n },
        { gpuCount: 2, minVramGb: 80, maxGpuRateMicros: 5_000_000n },
        { gpuCount: 1, minVramGb: 24, maxGpuRateMicros: 1_000_000n },
        { gpuCount: 4, minVramGb: 16, maxGpuRateMicros: 50_000_000n },
      ];
      for (let i = 0; i < 12; i += 1) {
        const ask = asks[i % asks.length];
        const page = await listingsRepo.page(tx, {
          view: 'market',
          limit: 9,
          now,
          sort: 'gpu-price-asc',
          ...ask,
        });
        // The page is the filters' own: each listing on it passes all three.
        for (const listing of JSON.parse(page.json) as {
          gpuCount: number;
          gpuMemoryGb: number;
          pricePerGpuHour: string;
        }[]) {
          expect(listing.gpuCount).toBe(ask?.gpuCount);
          expect(listing.gpuMemoryGb).toBeGreaterThanOrEqual(ask?.minVramGb ?? 0);
          expect(Number(listing.pricePerGpuHour) * 1e6).toBeLessThanOrEqual(
            Number(ask?.maxGpuRateMicros) + 5_000,
          );
        }
      }
      const result = (await tx.execute(
        sql`select name, generic_plans::int as generic, custom_plans::int as custom
            from pg_prepared_statements where name like 'listings_page%' order by name`,
      )) as unknown as { rows: { name: string; generic: number; custom: number }[] };
      return result.rows;
    });
    expect(plans).toHaveLength(1);
    for (const p of plans) {
      expect(p.custom, p.name).toBeLessThanOrEqual(5);
      expect(p.generic, p.name).toBeGreaterThanOrEqual(7);
    }
  });

  it('walks an index of its own GPU type, for every type and sort', async () => {
    // Migration 0046: an index per type of the filter bar and per sort, whose predicate is the
    // literal a page with that type writes (`model ilike '%h100%'`). Each type and sort's
    // statement must still write that very literal (else the index is never used), and on a
    // marketplace of several types PostgreSQL walks it rather than the sort's index of every
    // type. No sequential scan on these few rows.
    const seen = await database.db.transaction(async (tx) => {
      const provider = await createProvider(tx, { companyName: 'Types Compute' });
      const types = GPU_TYPE_FILTERS.slice(1);
      for (let i = 0; i < 300; i += 1) {
        await createListing(tx, {
          providerId: provider.id,
          model: types[i % types.length],
          location: `City ${i % 17}`,
          hourlyRate: (0.4 + ((i * 37) % 400) / 10).toFixed(2),
        });
      }
      await tx.execute(sql`analyze gpu_listings`);
      await tx.execute(sql`set local enable_seqscan = off`);
      const walked: string[] = [];
      const sorts: (ListingSort | undefined)[] = [undefined, ...SORT_OPTIONS.map((o) => o.value)];
      for (const type of types) {
        for (const sort of sorts) {
          // A search text sent as a value: the listings are chosen by a statement of their own
          // (`choose`), which is the one that walks an index.
          const query = pageQueryOf({
            view: 'market',
            limit: 20,
            now: new Date(),
            gpuType: type,
            search: 'city 1',
            sort,
          });
          const { text: statementText, values } = query.choose ?? {
            text: query.statement.text,
            values: query.values,
          };
          expect(statementText).toContain(`l.model ilike '%${type.toLowerCase()}%'`);
          const plan = (await tx.execute(
            sql.raw(
              `explain (format json) ${statementText.replace(/\$(\d+)/g, (_m, n: string) => {
                const v = values[Number(n) - 1];
                return v === undefined || v === null
                  ? 'null'
                  : `'${String(v).replaceAll("'", "''")}'`;
              })}`,
            ),
          )) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
          const text = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);
          const index = text.match(/"Index Name":"(gpu_listings_market_[a-z0-9_]+_idx)"/)?.[1];
          walked.push(`${type}|${sort ?? 'id'}|${index}`);
        }
      }
      return walked;
    });
    // On these few rows PostgreSQL may walk the type's id index and sort its 60 listings; at a
    // marketplace's size it walks the type's index of the sort (npm run bench, architecture doc).
    // Either way the index is the type's own, never the sort's index of every type.
    expect(seen).toEqual(
      seen.map((line) => {
        const [type = '', sort = '', index = ''] = line.split('|');
        const own = `gpu_listings_market_${type.toLowerCase().replace(' ', '_')}_`;
        return `${type}|${sort}|${index.startsWith(own) ? index : `${own}…`}`;
      }),
    );
  });
});
