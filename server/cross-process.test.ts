import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { AGENT_WAIT_MAX_MS, agentPaths } from '../shared/contracts/agent-protocol';
import { dollarsToMicros } from '../shared/rules/money';
import { type Database, openDatabase } from './db/client';
import { gpuListings } from './db/schema';
import { createHost } from './seed/factories';
import { createTestApp, type TestApp } from './test/app';
import { createApiKey, v1Request } from './test/public-api';
import { world } from './test/world';

/**
 * Two server processes on one PostgreSQL, as two apps in this test process: each its own
 * pool, its own listener and its own memory (docs/decisions/017-cross-process-signals.md).
 * Their clocks never move and their read caches last a minute, so what crosses from one
 * to the other can only have crossed as a signal.
 */
const onPostgres = Boolean(inject('pgTemplate'));
if (!onPostgres) {
  console.warn(
    'server/cross-process.test.ts skipped: signals cross processes on PostgreSQL only ' +
      '(run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres).',
  );
}

/** The longest allowed (a minute): no read-cache entry expires during the file. */
const env = { READ_CACHE_TTL_MS: '60000' };
/** Generous: what is asserted is that it arrives, the latency is measured by scripts/bench/signals.ts. */
const arrives = { timeout: 10_000, interval: 20 };

describe.skipIf(!onPostgres)('signals between two server processes on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  /** B's own pool on A's database, as a second server process would have. */
  let bDatabase: Database | undefined;
  beforeAll(async () => {
    a = await createTestApp({ env });
    const url = a.database.url;
    if (!url) throw new Error('the test database has no URL');
    bDatabase = await openDatabase({ kind: 'postgres', url });
    b = await createTestApp({ env, database: bDatabase });
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  /** An agent's long poll, held by B. */
  const waitOnB = (credential: string, maxMs = AGENT_WAIT_MAX_MS) =>
    b.request({
      method: 'POST',
      url: agentPaths.wait,
      payload: { maxMs },
      headers: { authorization: `Bearer ${credential}` },
    });

  it('both listen on PostgreSQL', () => {
    expect(a.app.deps.signals.transport).toBe('postgres');
    expect(b.app.deps.signals.transport).toBe('postgres');
  });

  it("a renter's rent and stop on A wake the agent waiting on B", async () => {
    const w = world(a);
    const owner = await w.provider();
    const host = await createHost(a.database.db, { providerId: owner.providerId });
    const listing = await w.listing({ providerId: owner.providerId, hostId: host.id });
    const renter = await a.signIn({ credits: '100.00' });

    const rentWait = waitOnB(host.credential);
    const rent = await a.request({
      method: 'POST',
      url: '/api/rentals',
      payload: w.rentBody(listing),
      cookie: renter.cookie,
    });
    expect(rent.statusCode).toBe(201);
    expect((await rentWait).json()).toEqual({ work: true });

    // Nothing is pending on B now; the stop wakes the next wait.
    expect((await waitOnB(host.credential, 0)).json()).toEqual({ work: false });
    const stopWait = waitOnB(host.credential);
    const stop = await a.request({
      method: 'PATCH',
      url: `/api/rentals/${rent.json().id}/stop`,
      cookie: renter.cookie,
    });
    expect(stop.statusCode).toBe(200);
    expect((await stopWait).json()).toEqual({ work: true });
  });

  it('a key revoked through A is refused through B', async () => {
    const user = await a.signIn();
    const { key, keyId } = await createApiKey(a, user.cookie, ['read']);
    expect((await v1Request(b, key, 'GET', '/gpu-listings?limit=1')).statusCode).toBe(200);
    // B remembers it (for 5 s of a clock that does not move).
    expect(b.app.deps.apiKeys.authenticateRemembered(key, b.clock.now())).toBeDefined();

    const revoked = await a.request({
      method: 'DELETE',
      url: `/api/auth/api-keys/${keyId}`,
      cookie: user.cookie,
    });
    expect(revoked.statusCode).toBe(204);
    await vi.waitFor(
      () => expect(b.app.deps.apiKeys.authenticateRemembered(key, b.clock.now())).toBeUndefined(),
      arrives,
    );
    const refused = await v1Request(b, key, 'GET', '/gpu-listings?limit=1');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('UNAUTHENTICATED');
  });

  it("a listing changed through A drops B's cached pages", async () => {
    const w = world(a);
    const owner = await w.provider();
    const listing = await w.listing({ providerId: owner.providerId, hourlyRate: '1.50' });
    const url = `/api/gpu-listings?providerId=${owner.providerId}`;
    const rateOnB = async () => (await b.request({ method: 'GET', url })).json()[0]?.hourlyRate;
    expect(await rateOnB()).toBe('1.50');

    // Written behind both apps' backs: B keeps serving its cached page.
    await a.database.db
      .update(gpuListings)
      .set({ hourlyRateMicros: dollarsToMicros('1.75') })
      .where(eq(gpuListings.id, listing.id));
    expect(await rateOnB()).toBe('1.50');

    const patched = await a.request({
      method: 'PATCH',
      url: `/api/gpu-listings/${listing.id}`,
      payload: { hourlyRate: '2.10' },
      cookie: owner.cookie,
    });
    expect(patched.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await rateOnB()).toBe('2.10'), arrives);
  });

  it('sends a signal raised in a transaction only if it commits', async () => {
    const heard: string[] = [];
    const off = b.app.deps.signals.on('api-key', (id) => heard.push(id ?? '*'));
    try {
      await expect(
        a.app.deps.signals.afterCommit((raise) =>
          a.database.db.transaction(async (tx) => {
            raise('api-key', 'rolled-back');
            await tx.execute(sql`select 1`);
            throw new Error('rolled back');
          }),
        ),
      ).rejects.toThrow('rolled back');
      await a.app.deps.signals.afterCommit((raise) =>
        a.database.db.transaction(async (tx) => {
          raise('api-key', 'committed');
          await tx.execute(sql`select 1`);
        }),
      );
      // Sent after the rollback would have been: had that one been sent, it came first.
      await vi.waitFor(() => expect(heard).toContain('committed'), arrives);
      expect(heard).toEqual(['committed']);
    } finally {
      off();
    }
  });

  it('a listener whose connection is killed reconnects, resyncs, and hears again', async () => {
    const user = await a.signIn();
    const { key } = await createApiKey(a, user.cookie, ['read']);
    expect((await v1Request(b, key, 'GET', '/gpu-listings?limit=1')).statusCode).toBe(200);
    expect(b.app.deps.apiKeys.authenticateRemembered(key, b.clock.now())).toBeDefined();

    const resynced = new Promise<void>((resolve) => {
      const off = b.app.deps.signals.onResync(() => {
        off();
        resolve();
      });
    });
    const admin = new pg.Client({ connectionString: a.database.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'rentgpu-signals' and datname = current_database()`,
      );
      expect(killed.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await resynced;
    // Everything may have changed while it was deaf: B forgot what it remembered.
    expect(b.app.deps.apiKeys.authenticateRemembered(key, b.clock.now())).toBeUndefined();

    const heard: string[] = [];
    const off = b.app.deps.signals.on('api-key', (id) => heard.push(id ?? '*'));
    try {
      await vi.waitFor(
        () => expect(a.app.deps.signals).toMatchObject({ listening: true }),
        arrives,
      );
      await a.app.deps.signals.publish('api-key', 'after-reconnect');
      await vi.waitFor(() => expect(heard).toEqual(['after-reconnect']), arrives);
    } finally {
      off();
    }
  });
});
