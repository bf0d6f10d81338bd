import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../env';
import { createHost, createListing } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { fillHistory } from '../../test/history';
import { explainAll, StatementLog, seqScannedTables } from '../../test/idle-plans';
import { world } from '../../test/world';

/** Instances that ended long ago, as a marketplace a year old has them. */
const HISTORY = 20_000;
/** A table this big read whole on every launch is what no launch may do. */
const BIG = 1_000;

if (!testDatabaseUrl())
  console.log(
    'server/modules/instances/launch-plans.test.ts skipped: it checks PostgreSQL query plans and needs TEST_DATABASE_URL',
  );

/**
 * A launch costs the same on a marketplace with a long past (issue 20): every statement a
 * rent (a demo listing's GPU pool) and a VM create (a host's pool) send is planned on
 * indexes, never as a Seq Scan of a big table; choosing the GPU reads only the instances
 * that hold one. The statements are the ones the app really sends (openDatabase's logger).
 */
describe.skipIf(!testDatabaseUrl())('a launch reads no history (PostgreSQL plans)', () => {
  const log = new StatementLog();
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let t: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase({ logger: log });
    await fillHistory(database.db, HISTORY, new Date());
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  it('a rent and a VM create plan every statement on indexes', async () => {
    const url = database.url;
    if (!url) throw new Error('no PostgreSQL URL');
    const w = world(t);
    const provider = await w.provider();
    const demo = await createListing(database.db, {
      providerId: provider.providerId,
      model: 'RTX 4090',
      memory: '24GB',
      hourlyRate: '1.00',
      totalCount: 2,
    });
    const host = await createHost(database.db, {
      providerId: provider.providerId,
      gpus: { name: 'NVIDIA A40', count: 1 },
    });
    await createListing(database.db, {
      providerId: provider.providerId,
      model: 'A40',
      memory: '48GB',
      hourlyRate: '1.00',
      hostId: host.id,
      totalCount: 1,
      hostGpuIndexes: [0],
    });
    const renter = await t.signIn({ credits: '100.00' });
    const launches = {
      rent: () =>
        t.request({
          method: 'POST',
          url: '/api/rentals',
          cookie: renter.cookie,
          payload: w.rentBody(demo, 1),
        }),
      'VM create': () =>
        t.request({
          method: 'POST',
          url: '/api/kvm/instances',
          cookie: renter.cookie,
          payload: { gpu_type: 'A40', disk_gb: 50 },
        }),
    };
    const found: Record<string, string[]> = {};
    for (const [name, launch] of Object.entries(launches)) {
      let answer = '';
      const statements = await log.during(async () => {
        const response = await launch();
        answer = `${response.statusCode} ${response.body}`;
      });
      expect(answer, name).toMatch(/^201 /);
      for (const plan of await explainAll(url, statements)) {
        const big = seqScannedTables(plan.scans).filter((s) => (plan.rows.get(s) ?? 0) >= BIG);
        if (big.length > 0)
          found[name] = [...(found[name] ?? []), `Seq Scan on ${big.join(', ')}: ${plan.sql}`];
      }
    }
    expect(found).toEqual({});
    // The history is really there, as the planner sees it.
    const [plan] = await explainAll(url, [{ sql: 'select 1', params: [] }]);
    expect(plan?.rows.get('instances') ?? 0).toBeGreaterThanOrEqual(HISTORY);
  });
});
