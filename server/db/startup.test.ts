import { randomBytes } from 'node:crypto';
import { count, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { parseEnv, testDatabaseUrl } from '../env';
import { ManualClock } from '../lib/clock';
import { MemoryRateLimiter } from '../lib/rate-limit';
import { checkInvariants } from '../modules/ledger/invariants';
import { DEMO_ADMIN, DEMO_PROVIDERS, DEMO_RENTERS, DEMO_USER } from '../seed/demo-data';
import { type SeedReport, seedDemoDataOnce } from '../seed/seed';
import { CapturingMailer, createTestApp, type TestApp } from '../test/app';
import { openDatabase } from './client';
import { gpuListings, instances, providers, users } from './schema';

/**
 * Start-up in any number (migrations and the demo seed under advisory locks): processes
 * started together on one empty database all come up, and the demo world exists once.
 */

const DEMO_EMAILS = [DEMO_USER, DEMO_ADMIN, ...DEMO_RENTERS].map((u) => u.email);
const DEMO_COMPANIES = DEMO_PROVIDERS.map((p) => p.companyName);
const DEMO_LISTINGS = DEMO_PROVIDERS.reduce((n, p) => n + p.listings.length, 0);
const DEMO_RENTED = DEMO_PROVIDERS.flatMap((p) => p.listings).reduce(
  (n, l) => n + ((l.totalCount ?? 1) - (l.availableCount ?? l.totalCount ?? 1)),
  0,
);

const sum = (reports: SeedReport[], key: keyof SeedReport) =>
  reports.reduce((n, r) => n + r[key], 0);

const url = testDatabaseUrl();
if (!url) {
  console.log(
    'startup.test.ts: the concurrent start-up test needs PostgreSQL (TEST_DATABASE_URL); skipped. The embedded database serves one process.',
  );
}

describe.skipIf(!url)('four processes started together on an empty PostgreSQL', () => {
  const name = `rentgpu_start_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('all migrate and seed; the demo world is there once, its money in order', async () => {
    const dbUrl = new URL(url ?? '');
    dbUrl.pathname = `/${name}`;
    const clock = new ManualClock(new Date());
    const env = parseEnv({ NODE_ENV: 'test', READ_CACHE_TTL_MS: '0' });
    // What server/main.ts does at start, four times at once.
    const start = async () => {
      const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 4 });
      await database.migrate();
      const app = await createApp({
        env,
        database,
        clock,
        mailer: new CapturingMailer(),
        limiter: new MemoryRateLimiter(clock),
        logger: false,
        webDir: null,
      });
      const report = await seedDemoDataOnce(database, app.deps, clock.now());
      return { database, app, report };
    };
    const started = await Promise.allSettled([start(), start(), start(), start()]);
    const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      expect(started.filter((s) => s.status === 'rejected')).toEqual([]);
      const reports = up.map((u) => u.report);
      // One seeded everything; the others found it there.
      expect(reports.filter((r) => Object.values(r).some((n) => n > 0))).toHaveLength(1);
      expect(sum(reports, 'createdUsers')).toBe(DEMO_EMAILS.length);
      expect(sum(reports, 'createdProviders')).toBe(DEMO_COMPANIES.length);
      expect(sum(reports, 'createdListings')).toBe(DEMO_LISTINGS);
      expect(sum(reports, 'createdRentals')).toBe(DEMO_RENTED);

      const db = up[0]?.database.db;
      if (!db) throw new Error('no process came up');
      const [people] = await db
        .select({ n: count() })
        .from(users)
        .where(inArray(users.email, DEMO_EMAILS));
      const [companies] = await db
        .select({ n: count() })
        .from(providers)
        .where(inArray(providers.companyName, DEMO_COMPANIES));
      const [listings] = await db.select({ n: count() }).from(gpuListings);
      const [rentals] = await db.select({ n: count() }).from(instances);
      expect({
        users: people?.n,
        providers: companies?.n,
        listings: listings?.n,
        rentals: rentals?.n,
      }).toEqual({
        users: DEMO_EMAILS.length,
        providers: DEMO_COMPANIES.length,
        listings: DEMO_LISTINGS,
        rentals: DEMO_RENTED,
      });
      expect(await checkInvariants(db)).toEqual([]);

      // A later start (a rolling restart, `npm run migrate`) changes nothing.
      const again = await start();
      up.push(again);
      expect(Object.values(again.report).every((n) => n === 0)).toBe(true);
    } finally {
      for (const { app, database } of up) {
        await app.close();
        await database.close();
      }
    }
  }, 120_000);
});

describe('the demo seed on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds nothing the second time, and runs under the same lock call as on PostgreSQL', async () => {
    const first = await seedDemoDataOnce(t.database, t.app.deps, t.clock.now());
    expect(first.createdUsers).toBe(DEMO_EMAILS.length);
    expect(first.createdRentals).toBe(DEMO_RENTED);
    const [before] = await t.database.db.select({ n: count() }).from(instances);
    const second = await seedDemoDataOnce(t.database, t.app.deps, t.clock.now());
    expect(second).toEqual({
      createdUsers: 0,
      createdProviders: 0,
      createdListings: 0,
      createdRentals: 0,
    });
    const [after] = await t.database.db.select({ n: count() }).from(instances);
    expect(after?.n).toBe(before?.n);
    expect(await checkInvariants(t.database.db)).toEqual([]);
  });
});
