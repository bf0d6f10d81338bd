import { count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, instances as rentals } from '../../db/schema';
import { testDatabaseUrl } from '../../env';
import { hashSessionToken, SESSION_TTL_MS } from '../../modules/auth/service';
import { sessionsRepo } from '../../modules/auth/sessions-repo';
import { SESSION_COOKIE } from '../../plugins/session';
import { createTestApp, type TestApp } from '../../test/app';
import { type FakePaypal, startFakePaypal } from '../../test/fake-paypal';
import { paypalEnv } from '../../test/payments';
import { world } from '../../test/world';
import { randomToken } from '../crypto';
import { recordAnswer } from '.';
import { canonicalJson, readIdempotencyKey, requestHash } from './request';
import { idempotencyStore, KEY_TTL_MS } from './store';

/**
 * A gate the test route waits on, so a test decides when "the first request" finishes;
 * `arrived` resolves once a request waits at it.
 */
let gate: {
  open: () => void;
  wait: Promise<void>;
  arrive: () => void;
  arrived: Promise<void>;
} | null = null;
const makeGate = () => {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  gate = { open, wait, arrive, arrived };
  return gate;
};
/** What the test route did and committed. */
const effects = { committed: 0, runs: 0 };

/** Generic routes that opt in the way /api/v1 will: one line of config. */
function testRoutes(app: FastifyInstance) {
  app.post('/api/test/idem/:id', { config: { idempotency: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as { fail?: number; wait?: boolean; hangAfter?: boolean };
    effects.runs += 1;
    if (body.wait && gate) {
      gate.arrive();
      await gate.wait;
    }
    if (body.fail) return reply.status(body.fail).send({ error: { code: 'X', message: 'x' } });
    const answer = { run: effects.runs, id: (request.params as { id: string }).id };
    // The "money" and the answer in one transaction, as the money routes do it.
    await t.database.db.transaction(async (tx) => {
      await recordAnswer(request, 201, (a: typeof answer) => a)?.(tx, answer);
    });
    effects.committed += 1;
    // Committed, then the process "dies" before it answers (the test never opens the gate
    // until the end).
    if (body.hangAfter && gate) {
      gate.arrive();
      await gate.wait;
    }
    return reply.status(201).send(answer);
  });
  app.patch('/api/test/idem-plain', { config: { idempotency: true } }, async () => {
    effects.runs += 1;
    return { run: effects.runs };
  });
}

let t: TestApp;
let w: ReturnType<typeof world>;
let fake: FakePaypal;
const db = () => t.database.db;

beforeAll(async () => {
  fake = await startFakePaypal();
  // Leases renewed by their timer only every 200 s, so a test decides when a holder renews
  // (`idempotencyLeases.renew()`) and when a lease ends (expireLease).
  t = await createTestApp({
    env: { ...paypalEnv(fake), IDEMPOTENCY_LEASE_MS: '600000' },
    extend: testRoutes,
  });
  w = world(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(async () => {
  gate?.open();
  gate = null;
  expect(await w.invariants()).toEqual([]);
});

const rent = (cookie: string, payload: unknown, key?: string) =>
  t.request({
    method: 'POST',
    url: '/api/rentals',
    payload: payload as Record<string, unknown>,
    cookie,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

/** A new session for a user whose first one the test clock has aged out. */
async function freshSession(userId: string): Promise<string> {
  const token = randomToken();
  await sessionsRepo.insert(db(), {
    tokenHash: hashSessionToken(token),
    userId,
    expiresAt: new Date(t.clock.now().getTime() + SESSION_TTL_MS),
    userAgent: 'vitest',
    ip: '127.0.0.1',
  });
  return `${SESSION_COOKIE}=${token}`;
}

/** Ends a key's claim lease now, as time passing without its holder renewing it would. */
async function expireLease(key: string) {
  await db()
    .update(idempotencyKeys)
    .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
    .where(eq(idempotencyKeys.key, key));
}

async function rentalsOf(userId: string) {
  const [row] = await db().select({ n: count() }).from(rentals).where(eq(rentals.userId, userId));
  return row?.n ?? 0;
}

describe('Idempotency-Key header', () => {
  it('must be 1–255 printable ASCII characters', () => {
    expect(readIdempotencyKey(undefined)).toBeNull();
    expect(readIdempotencyKey('a')).toBe('a');
    expect(readIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    for (const bad of ['', 'k'.repeat(256), 'tab\there', 'caf\u00e9', 'nul\u0000', ['a', 'b']]) {
      expect(() => readIdempotencyKey(bad)).toThrowError(
        expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }),
      );
    }
  });

  it('hashes bodies canonically: key order does not matter, values do', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: null, c: 'x' }] })).toBe(
      canonicalJson({ a: [2, { c: 'x', d: null }], b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });

  it('a bad key is refused with 400 VALIDATION_FAILED and rents nothing', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing();
    for (const key of ['k'.repeat(256), 'tab\there', '']) {
      const res = await rent(renter.cookie, w.rentBody(listing), key);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(res.json().error.details.fields['Idempotency-Key']).toBeDefined();
    }
    expect(await rentalsOf(renter.userId)).toBe(0);
    expect(await w.balance(renter.cookie)).toBe('100.00');
  });

  it('a body nested too deeply to hash is 400, not a stack overflow (found by the API fuzz run)', async () => {
    expect(() => canonicalJson(JSON.parse(`${'['.repeat(65)}${']'.repeat(65)}`))).toThrowError(
      expect.objectContaining({ status: 400, code: 'BAD_REQUEST' }),
    );
    expect(canonicalJson(JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`))).toBe(
      `${'['.repeat(64)}${']'.repeat(64)}`,
    );
    const renter = await t.signIn({ credits: '100.00' });
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: deep,
      cookie: renter.cookie,
      headers: { 'idempotency-key': 'deep', 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(await rentalsOf(renter.userId)).toBe(0);
  });
});

describe(`POST /api/rentals with an Idempotency-Key (${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a retry replays the first answer and moves the money once', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.50' });
    const first = await rent(renter.cookie, w.rentBody(listing, 2), 'retry-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await rent(renter.cookie, w.rentBody(listing, 2), 'retry-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.body).toBe(first.body);
    // 2 h × $1.50 + $2.50 storage, once.
    expect(await w.balance(renter.cookie)).toBe('94.50');
    expect(await rentalsOf(renter.userId)).toBe(1);
  });

  it('the same key with the same body in another key order is the same request', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing();
    const body = w.rentBody(listing, 1);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await rent(renter.cookie, body, 'order')).statusCode).toBe(201);
    const again = await rent(renter.cookie, reordered, 'order');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await rentalsOf(renter.userId)).toBe(1);
  });

  it('the same key with another body is refused with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    expect((await rent(renter.cookie, w.rentBody(listing, 1), 'reuse')).statusCode).toBe(201);
    const other = await rent(renter.cookie, w.rentBody(listing, 3), 'reuse');
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await w.balance(renter.cookie)).toBe('96.50');
    expect(await rentalsOf(renter.userId)).toBe(1);
  });

  it('duplicates fired at once make exactly one rental; the others are 409 or the replay', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '2.00', totalCount: 10 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => rent(renter.cookie, w.rentBody(listing, 1), 'burst')),
    );
    const fresh = results.filter(
      (r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r.statusCode === 201) expect(r.body).toBe(fresh[0]?.body);
      else {
        expect(r.statusCode).toBe(409);
        expect(r.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      }
    }
    expect(await w.balance(renter.cookie)).toBe('95.50');
    expect(await rentalsOf(renter.userId)).toBe(1);
  });

  it('keys are per user: the same key from another user is independent', async () => {
    const listing = await w.listing({ hourlyRate: '1.00' });
    const alice = await t.signIn({ credits: '50.00' });
    const bob = await t.signIn({ credits: '50.00' });
    const a = await rent(alice.cookie, w.rentBody(listing, 1), 'shared-key');
    const b = await rent(bob.cookie, w.rentBody(listing, 1), 'shared-key');
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
    expect(await w.balance(alice.cookie)).toBe('46.50');
    expect(await w.balance(bob.cookie)).toBe('46.50');
  });

  it('a refusal (402) is stored and replayed; a 409 is not stored, so a retry can succeed', async () => {
    const poor = await t.signIn({ credits: '1.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    const refused = await rent(poor.cookie, w.rentBody(listing, 1), 'poor');
    expect(refused.statusCode).toBe(402);
    const replay = await rent(poor.cookie, w.rentBody(listing, 1), 'poor');
    expect(replay.statusCode).toBe(402);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(refused.body);
    expect(await w.balance(poor.cookie)).toBe('1.00');

    const renter = await t.signIn({ credits: '100.00' });
    const other = await t.signIn({ credits: '100.00' });
    const last = await w.listing({ hourlyRate: '1.00', totalCount: 1 });
    const taken = await rent(other.cookie, w.rentBody(last, 1));
    expect(taken.statusCode).toBe(201);
    const busy = await rent(renter.cookie, w.rentBody(last, 1), 'wait-for-unit');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('LISTING_UNAVAILABLE');
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${taken.json().id}/stop`,
      cookie: other.cookie,
    });
    expect(stop.statusCode).toBe(200);
    // Its GPU is held until its host has let it go (docs/decisions/020): the demo host's pass.
    await t.app.deps.worker.runOnce(t.clock.now());
    const retried = await rent(renter.cookie, w.rentBody(last, 1), 'wait-for-unit');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('without a key every request is its own (as before)', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    expect((await rent(renter.cookie, w.rentBody(listing, 1))).statusCode).toBe(201);
    expect((await rent(renter.cookie, w.rentBody(listing, 1))).statusCode).toBe(201);
    expect(await rentalsOf(renter.userId)).toBe(2);
  });

  it('a key expires after 24 hours: then it is a new request, and the sweep deletes it', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    expect((await rent(renter.cookie, w.rentBody(listing, 1), 'day-old')).statusCode).toBe(201);
    t.clock.advance(KEY_TTL_MS - 1000);
    const within = await rent(renter.cookie, w.rentBody(listing, 1), 'day-old');
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(await rentalsOf(renter.userId)).toBe(1);
    t.clock.advance(1000);
    const cookie = await freshSession(renter.userId);
    const expired = await rent(cookie, w.rentBody(listing, 1), 'day-old');
    expect(expired.statusCode).toBe(201);
    expect(expired.headers['idempotent-replayed']).toBeUndefined();
    expect(await rentalsOf(renter.userId)).toBe(2);
    expect(await w.balance(cookie)).toBe('93.00');

    // The taken-over row lives another 24 h; the sweep removes only expired rows.
    const keyRows = () =>
      db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'day-old'));
    expect(await idempotencyStore.sweep(db(), t.clock.now())).toBeGreaterThanOrEqual(0);
    expect(await keyRows()).toHaveLength(1);
    t.clock.advance(KEY_TTL_MS);
    expect(await idempotencyStore.sweep(db(), t.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await keyRows()).toHaveLength(0);
  });
});

describe('POST /api/payments/paypal/order with an Idempotency-Key', () => {
  const order = (cookie: string, body: Record<string, unknown>, key: string) =>
    t.request({
      method: 'POST',
      url: '/api/payments/paypal/order',
      payload: body,
      cookie,
      headers: { 'idempotency-key': key },
    });
  const creates = () => fake.calls.filter((c) => c === 'POST /v2/checkout/orders').length;

  it('a retry replays the same PayPal order without creating another', async () => {
    const { cookie } = await t.signIn();
    const before = creates();
    const first = await order(cookie, { packageId: 'standard' }, 'checkout-1');
    expect(first.statusCode).toBe(201);
    const again = await order(cookie, { packageId: 'standard' }, 'checkout-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect(creates() - before).toBe(1);
    const other = await order(cookie, { packageId: 'pro' }, 'checkout-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('PayPal failing (502) releases the key: the retry with it creates the order', async () => {
    const { cookie } = await t.signIn();
    fake.failCreateWith = 500;
    try {
      expect((await order(cookie, { packageId: 'starter' }, 'flaky')).statusCode).toBe(502);
    } finally {
      fake.failCreateWith = null;
    }
    const retried = await order(cookie, { packageId: 'starter' }, 'flaky');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('the mechanism, on a route that opts in', () => {
  const call = (cookie: string, body: Record<string, unknown>, key: string, id = '1') =>
    t.request({
      method: 'POST',
      url: `/api/test/idem/${id}`,
      payload: body,
      cookie,
      headers: { 'idempotency-key': key },
    });

  it('a duplicate while the first is still running gets 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const { cookie } = await t.signIn();
    const g = makeGate();
    const first = call(cookie, { wait: true }, 'slow');
    // Wait until the first request holds the claim.
    while (
      (await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'slow'))).length ===
      0
    )
      await new Promise((resolve) => setImmediate(resolve));
    const second = await call(cookie, { wait: true }, 'slow');
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    g.open();
    expect((await first).statusCode).toBe(201);
    const third = await call(cookie, { wait: true }, 'slow');
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.body).toBe((await first).body);
  });

  it('path parameters are part of the request: the same key on another id is refused', async () => {
    const { cookie } = await t.signIn();
    expect((await call(cookie, {}, 'path', '1')).statusCode).toBe(201);
    expect((await call(cookie, {}, 'path', '2')).statusCode).toBe(422);
  });

  it('5xx, 409 and 429 answers release the key; other 4xx are kept', async () => {
    const { cookie } = await t.signIn();
    for (const status of [500, 503, 409, 429]) {
      const key = `released-${status}`;
      expect((await call(cookie, { fail: status }, key)).statusCode).toBe(status);
      const again = await call(cookie, { fail: status }, key);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
    }
    for (const status of [400, 403, 404]) {
      const key = `kept-${status}`;
      expect((await call(cookie, { fail: status }, key)).statusCode).toBe(status);
      const again = await call(cookie, { fail: status }, key);
      expect(again.statusCode).toBe(status);
      expect(again.headers['idempotent-replayed']).toBe('true');
    }
  });

  it('a route that does not record in a transaction has its answer stored after sending', async () => {
    const { cookie } = await t.signIn();
    const send = () =>
      t.request({
        method: 'PATCH',
        url: '/api/test/idem-plain',
        payload: { x: 1 },
        cookie,
        headers: { 'idempotency-key': 'plain' },
      });
    const first = await send();
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('a holder that stalled past its lease is taken over and can no longer commit', async () => {
    const { cookie } = await t.signIn();
    const g = makeGate();
    const committed = effects.committed;
    const stuck = call(cookie, { wait: true }, 'lease');
    // Wait until the first request holds the claim and waits at the gate (not only the claim:
    // a request that reached the route after `gate = null` would not wait at all).
    await g.arrived;
    await expireLease('lease');
    gate = null;
    const takeover = await call(cookie, { wait: true }, 'lease');
    expect(takeover.statusCode).toBe(201);
    g.open();
    const late = await stuck;
    // Its transaction (the work and the answer) was rolled back: the work happened once.
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(effects.committed - committed).toBe(1);
    const replay = await call(cookie, { wait: true }, 'lease');
    expect(replay.body).toBe(takeover.body);
  });

  it('unauthenticated requests are not keyed (the route answers for itself)', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: {},
      headers: { 'idempotency-key': 'anon' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe(`claim leases: a dead process's claim is taken over in seconds (${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'})`, () => {
  const call = (cookie: string, body: Record<string, unknown>, key: string) =>
    t.request({
      method: 'POST',
      url: '/api/test/idem/1',
      payload: body,
      cookie,
      headers: { 'idempotency-key': key },
    });
  const leaseOf = async (key: string) => {
    const [row] = await db()
      .select({ state: idempotencyKeys.state, live: sql<boolean>`lease_expires_at > now()` })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
    return row;
  };

  it('a claim left in progress by a process that died is taken over once its lease ends; the work runs once', async () => {
    const { userId, cookie } = await t.signIn();
    // What a process killed between claim and commit leaves: an in-progress claim of this
    // very request that nobody renews.
    const scope = { owner: userId, method: 'POST', route: '/api/test/idem/:id', key: 'crash' };
    const hash = requestHash({ params: { id: '1' }, query: {}, body: {} });
    const dead = await idempotencyStore.claim(db(), scope, hash, t.clock.now(), 600_000);
    expect(dead.kind).toBe('claimed');
    // While its lease runs, the retry is refused: the holder may still be working.
    const early = await call(cookie, {}, 'crash');
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    // Another request under the key is still another request, lease or not.
    await expireLease('crash');
    expect((await call(cookie, { other: 1 }, 'crash')).statusCode).toBe(422);

    const runs = effects.runs;
    const committed = effects.committed;
    const retry = await call(cookie, {}, 'crash');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await call(cookie, {}, 'crash');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(retry.body);
    expect(effects.runs - runs).toBe(1);
    expect(effects.committed - committed).toBe(1);
    // The dead claim's token is spent: it can neither complete nor release the key.
    if (dead.kind !== 'claimed') throw new Error('unreachable');
    const late = { status: 201, body: '{}' };
    expect(await idempotencyStore.complete(db(), dead.claim, late, t.clock.now())).toBe(false);
    await idempotencyStore.release(db(), dead.claim);
    expect((await leaseOf('crash'))?.state).toBe('completed');
  });

  it('a claim whose holder is still renewing its lease is not taken over (409)', async () => {
    const { cookie } = await t.signIn();
    const g = makeGate();
    const committed = effects.committed;
    const first = call(cookie, { wait: true }, 'renewed');
    await g.arrived;
    expect(t.app.idempotencyLeases.size).toBe(1);
    // Time passes past the lease, but the live holder renews it.
    await expireLease('renewed');
    await t.app.idempotencyLeases.renew();
    expect((await leaseOf('renewed'))?.live).toBe(true);
    const retry = await call(cookie, { wait: true }, 'renewed');
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    g.open();
    expect((await first).statusCode).toBe(201);
    expect(effects.committed - committed).toBe(1);
    // Answered: the process renews nothing any more (no claim held, no timer).
    expect(t.app.idempotencyLeases.size).toBe(0);
    expect((await leaseOf('renewed'))?.state).toBe('completed');
  });

  it('a first attempt that committed its work is replayed after its lease ends, never redone', async () => {
    const { cookie } = await t.signIn();
    const g = makeGate();
    const runs = effects.runs;
    const committed = effects.committed;
    // The first attempt commits the work with its answer, then hangs before answering (its
    // process dies); its lease ends.
    const first = call(cookie, { hangAfter: true }, 'committed');
    await g.arrived;
    expect(effects.committed - committed).toBe(1);
    await expireLease('committed');
    const retry = await call(cookie, { hangAfter: true }, 'committed');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual({ run: runs + 1, id: '1' });
    expect(effects.runs - runs).toBe(1);
    expect(effects.committed - committed).toBe(1);
    g.open();
    expect((await first).body).toBe(retry.body);
  });

  it('renewing extends only claims still held: one taken over is let go', async () => {
    const { userId } = await t.signIn();
    const scope = { owner: userId, method: 'POST', route: '/api/test/x', key: 'renew' };
    const a = await idempotencyStore.claim(db(), scope, 'h', t.clock.now(), 600_000);
    if (a.kind !== 'claimed') throw new Error('not claimed');
    expect(await idempotencyStore.renew(db(), [a.claim], 1000)).toEqual([a.claim.id]);
    await expireLease('renew');
    const b = await idempotencyStore.claim(db(), scope, 'h', t.clock.now(), 600_000);
    if (b.kind !== 'claimed') throw new Error('not taken over');
    expect(b.claim.id).toBe(a.claim.id);
    expect(await idempotencyStore.renew(db(), [a.claim], 1000)).toEqual([]);
    expect(await idempotencyStore.renew(db(), [a.claim, b.claim], 1000)).toEqual([b.claim.id]);
    await idempotencyStore.release(db(), b.claim);
  });

  // PGlite has one connection: a renewal cannot run beside an open transaction there.
  it.skipIf(!testDatabaseUrl())(
    'renewing skips a claim whose request is completing it in an open transaction, never waits',
    async () => {
      const { userId } = await t.signIn();
      const scope = { owner: userId, method: 'POST', route: '/api/test/x', key: 'locked' };
      const held = await idempotencyStore.claim(db(), scope, 'h', t.clock.now(), 600_000);
      if (held.kind !== 'claimed') throw new Error('not claimed');
      const answer = { status: 201, body: '{}' };
      await db().transaction(async (tx) => {
        expect(await idempotencyStore.complete(tx, held.claim, answer, t.clock.now())).toBe(true);
        expect(await idempotencyStore.renew(db(), [held.claim], 1000)).toEqual([]);
      });
      expect((await leaseOf('locked'))?.state).toBe('completed');
    },
  );
});
