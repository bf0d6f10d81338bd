import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TIER_LIMITS } from '../../../shared/contracts/public-api';
import { apiKeys, instances } from '../../db/schema';
import { testRedisUrl } from '../../env';
import { RedisRateLimiter } from '../../lib/rate-limit';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey, expectReplayOf, type V1Args, v1Request } from '../../test/public-api';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { keyBucket } from './access';

let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const ED25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop';

/** A user with credits and an API key of these permissions. */
async function caller(permissions = ['read', 'write'], credits = '100.00') {
  const user = await t.signIn({ credits });
  return { ...user, ...(await createApiKey(t, user.cookie, permissions)) };
}

const v1 = (...args: V1Args) => v1Request(t, ...args);

describe('authentication, permissions and tiers', () => {
  it('401 in the error body without a key, with an unknown one and with a revoked one', async () => {
    const me = await caller();
    for (const key of [null, 'rgpu_nope', `${me.key}x`]) {
      const res = await v1(key, 'GET', '/gpu-listings');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toMatchObject({ code: 'UNAUTHENTICATED', details: {} });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="rentgpu"');
      expect(res.headers['ratelimit-policy']).toMatch(/^"anonymous";q=1000;w=3600$/);
    }
    expect((await v1(me.key, 'GET', '/gpu-listings')).statusCode).toBe(200);
    await t.request({ method: 'DELETE', url: `/api/auth/api-keys/${me.keyId}`, cookie: me.cookie });
    expect((await v1(me.key, 'GET', '/gpu-listings')).statusCode).toBe(401);
    // A session cookie is no key.
    const res = await t.request({ method: 'GET', url: '/api/v1/account', cookie: me.cookie });
    expect(res.statusCode).toBe(401);
  });

  it('403 for a missing permission: read for reads, write for changes, admin for keys', async () => {
    const reader = await caller(['read']);
    const writer = await caller(['write']);
    const admin = await caller(['admin']);
    const listing = await w.listing();
    const create = await v1(reader.key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toMatchObject({
      code: 'FORBIDDEN',
      details: { required: 'write', granted: ['read'] },
    });
    expect((await v1(writer.key, 'GET', '/instances')).statusCode).toBe(403);
    expect((await v1(reader.key, 'GET', '/api-keys')).statusCode).toBe(403);
    expect((await v1(writer.key, 'GET', '/api-keys')).statusCode).toBe(403);
    const keys = await v1(admin.key, 'GET', '/api-keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.json().apiKeys.map((k: { id: string }) => k.id)).toEqual([admin.keyId]);
    // Access comes before input: a reader's bad body is still 403.
    expect((await v1(reader.key, 'POST', '/instances', { bad: 1 })).statusCode).toBe(403);
  });

  it('every answer carries the IETF RateLimit headers of the key’s tier', async () => {
    const me = await caller();
    const first = await v1(me.key, 'GET', '/account');
    expect(first.headers['ratelimit-policy']).toBe('"standard";q=1000;w=3600');
    expect(first.headers.ratelimit).toBe('"standard";r=999;t=3600');
    t.clock.advance(60_000);
    const second = await v1(me.key, 'GET', '/nope-not-a-route');
    expect(second.statusCode).toBe(404);
    const third = await v1(me.key, 'GET', '/account');
    expect(third.headers.ratelimit).toBe('"standard";r=998;t=3540');
  });

  it('a tier allows its requests per hour, then 429 with Retry-After, again after the hour', async () => {
    const me = await caller();
    await t.database.db.update(apiKeys).set({ rateTier: 'pro' }).where(eq(apiKeys.id, me.keyId));
    const limit = TIER_LIMITS.pro;
    for (let i = 0; i < limit - 1; i++) await t.limiter.hit(keyBucket(me.keyId), limit, 3_600_000);
    const last = await v1(me.key, 'GET', '/account');
    expect(last.statusCode).toBe(200);
    expect(last.headers.ratelimit).toBe('"pro";r=0;t=3600');
    const over = await v1(me.key, 'GET', '/account');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('3600');
    expect(over.headers['ratelimit-policy']).toBe('"pro";q=5000;w=3600');
    expect(over.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 3600 },
    });
    expect(over.json().error.message).toContain('5,000 requests per hour');
    t.clock.advance(3_600_000);
    expect((await v1(me.key, 'GET', '/account')).statusCode).toBe(200);
  });

  it('no overshoot under 200 concurrent requests: exactly the quota passes', async () => {
    const me = await caller();
    const limit = TIER_LIMITS.standard;
    for (let i = 0; i < limit - 50; i++) await t.limiter.hit(keyBucket(me.keyId), limit, 3_600_000);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => v1(me.key, 'GET', '/account')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
  });
});

describe('tiers in Redis (TEST_REDIS_URL)', () => {
  it.skipIf(!testRedisUrl())('no overshoot under 200 concurrent requests', async () => {
    const limiter = new RedisRateLimiter(
      testRedisUrl() ?? '',
      `rentgpu:test:${crypto.randomUUID()}:`,
    );
    const r = await createTestApp({ limiter });
    try {
      const user = await r.signIn();
      const { key, id } = (
        await r.request({
          method: 'POST',
          url: '/api/auth/api-keys',
          cookie: user.cookie,
          payload: { name: 'redis' },
        })
      ).json();
      const limit = TIER_LIMITS.standard;
      await Promise.all(
        Array.from({ length: limit - 50 }, () => limiter.hit(keyBucket(id), limit, 3_600_000)),
      );
      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          r.request({
            method: 'GET',
            url: '/api/v1/account',
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(150);
      expect(answers.find((a) => a.statusCode === 429)?.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await r.close();
    }
  });
});

describe('GPU listings', () => {
  it('answers {gpus:[…]} in the spec’s public listing shape, a page at a time', async () => {
    const me = await caller(['read']);
    await w.listing({ model: 'H100', hourlyRate: '4.00', totalCount: 2 });
    const res = await v1(me.key, 'GET', '/gpu-listings?limit=1&sort=price-desc');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.gpus).toHaveLength(1);
    expect(Object.keys(body.gpus[0]).sort()).toEqual(
      [
        'availableCount',
        'cudaCores',
        'cudaVersion',
        'dailyRate',
        'diskGb',
        'driverVersion',
        'gpuCount',
        'gpuMemoryGb',
        'gpuShare',
        'hourlyRate',
        'id',
        'kinds',
        'location',
        'memory',
        'model',
        'pricePerGpuHour',
        'provider',
        'reliability',
      ].sort(),
    );
    expect(Object.keys(body.gpus[0].provider).sort()).toEqual(['name', 'reputation']);
    expect(typeof body.nextCursor).toBe('string');
    const next = await v1(
      me.key,
      'GET',
      `/gpu-listings?limit=1&sort=price-desc&cursor=${body.nextCursor}`,
    );
    expect(next.json().gpus[0].id).not.toBe(body.gpus[0].id);
    const bad = await v1(me.key, 'GET', '/gpu-listings?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('instances', () => {
  it('metered without a duration: create, get, list, stop, start, terminate', async () => {
    const me = await caller();
    const listing = await w.listing({ hourlyRate: '2.00' });
    const created = await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(created.statusCode).toBe(201);
    const instance = created.json().instance;
    expect(instance).toMatchObject({
      status: 'provisioning',
      sshHost: null,
      sshPort: null,
      sshUsername: 'ubuntu',
      billingPlan: 'metered',
      durationHours: null,
      hourlyRate: '2.00',
      actions: ['terminate'],
    });
    expect(Date.parse(instance.estimatedStartTime)).toBe(t.clock.now().getTime() + 300_000);

    const got = await v1(me.key, 'GET', `/instances/${instance.id}`);
    expect(got.json().instance.id).toBe(instance.id);

    // The demo host reports it ready.
    t.clock.advance(21_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    const ready = (await v1(me.key, 'GET', `/instances/${instance.id}`)).json().instance;
    expect(ready.status).toBe('running');
    expect(ready.sshHost).toEqual(expect.any(String));
    expect(ready.sshPort).toEqual(expect.any(Number));

    const stopped = await v1(me.key, 'PATCH', `/instances/${instance.id}/stop`);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().instance.status).toBe('stopping');
    await t.app.deps.worker.runOnce(t.clock.now());
    // A stop repeated on a stopped instance: 200 with the instance as it is.
    const again = await v1(me.key, 'PATCH', `/instances/${instance.id}/stop`);
    expect(again.statusCode).toBe(200);
    expect(again.json().instance).toMatchObject({
      id: instance.id,
      status: 'stopped',
      actions: ['start', 'terminate'],
    });
    const started = await v1(me.key, 'POST', `/instances/${instance.id}/start`);
    expect(started.json().instance.status).toBe('starting');

    const running = await v1(me.key, 'GET', '/instances?status=starting');
    expect(running.json().instances.map((i: { id: number }) => i.id)).toEqual([instance.id]);

    const ended = await v1(me.key, 'DELETE', `/instances/${instance.id}`);
    expect(ended.statusCode).toBe(200);
    expect(['terminating', 'terminated']).toContain(ended.json().instance.status);
    // Retried: 200 with the current state; stopping it too; starting it is impossible (409).
    await t.app.deps.worker.runOnce(t.clock.now());
    const retried = await v1(me.key, 'DELETE', `/instances/${instance.id}`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().instance).toMatchObject({ status: 'terminated', actions: [] });
    expect((await v1(me.key, 'PATCH', `/instances/${instance.id}/stop`)).statusCode).toBe(200);
    const impossible = await v1(me.key, 'POST', `/instances/${instance.id}/start`);
    expect(impossible.statusCode).toBe(409);
    expect(impossible.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { state: 'terminated', allowedActions: [] },
    });
  });

  it('with a duration: a booked rental at the server’s quote, stopped and settled', async () => {
    const me = await caller(['read', 'write'], '50.00');
    const listing = await w.listing({ hourlyRate: '1.50' });
    const created = await v1(me.key, 'POST', '/instances', {
      gpuListingId: listing.id,
      durationHours: 4,
    });
    expect(created.statusCode).toBe(201);
    const instance = created.json().instance;
    expect(instance).toMatchObject({ billingPlan: 'booked', durationHours: 4, hourlyRate: '1.50' });
    // 4 h × $1.50 + $2.50 storage.
    expect(await w.balance(me.cookie)).toBe('41.50');
    const stopped = await v1(me.key, 'PATCH', `/instances/${instance.id}/stop`);
    expect(stopped.statusCode).toBe(200);
    expect(['terminating', 'terminated']).toContain(stopped.json().instance.status);
    // Never ready: a full refund.
    expect(await w.balance(me.cookie)).toBe('50.00');
    // A DELETE after the stop (the rental already terminating) is 200, and settles nothing twice.
    const deleted = await v1(me.key, 'DELETE', `/instances/${instance.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().instance.status).toBe(stopped.json().instance.status);
    expect(await w.balance(me.cookie)).toBe('50.00');
  });

  it('409 CAPACITY_UNAVAILABLE on a listing with nothing free says nothing was created', async () => {
    const me = await caller();
    const listing = await w.listing({ hourlyRate: '1.00', totalCount: 1 });
    const first = await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(first.statusCode).toBe(201);
    const full = await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(full.statusCode).toBe(409);
    // No instance exists, so nothing "stays stopped": the message names what happened.
    expect(full.json().error).toMatchObject({
      code: 'CAPACITY_UNAVAILABLE',
      message: expect.stringContaining('nothing was rented or charged'),
    });
    expect(full.json().error.message).not.toContain('stays stopped');
    await v1(me.key, 'DELETE', `/instances/${first.json().instance.id}`);
  });

  it('402 INSUFFICIENT_CREDITS with required, available and currency', async () => {
    const me = await caller(['read', 'write'], '1.00');
    const listing = await w.listing({ hourlyRate: '3.00' });
    for (const body of [
      { gpuListingId: listing.id },
      { gpuListingId: listing.id, durationHours: 2 },
    ]) {
      const res = await v1(me.key, 'POST', '/instances', body);
      expect(res.statusCode).toBe(402);
      expect(res.json().error).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        details: { available: '1.00', currency: 'USD', required: expect.any(String) },
      });
    }
  });

  it('bad input is 400 VALIDATION_FAILED; unknown listing or SSH key refused', async () => {
    const me = await caller();
    const listing = await w.listing();
    for (const body of [
      {},
      { gpuListingId: 'x' },
      { gpuListingId: listing.id, durationHours: 0 },
      { gpuListingId: listing.id, durationHours: 721 },
      { gpuListingId: listing.id, sshKeyId: 'nope' },
      { gpuListingId: listing.id, sshKeyId: crypto.randomUUID() },
      // Numbers as the document says: no "1", true or [1] read as 1 (found by the fuzz run).
      { gpuListingId: String(listing.id) },
      { gpuListingId: true },
      { gpuListingId: [listing.id] },
      { gpuListingId: listing.id, durationHours: '2' },
    ]) {
      const res = await v1(me.key, 'POST', '/instances', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    const unknown = await v1(me.key, 'POST', '/instances', { gpuListingId: 999_999 });
    expect(unknown.statusCode).toBe(404);
  });

  it("another user's instance is 404 to every call, never data", async () => {
    const owner = await caller();
    const other = await caller(['read', 'write', 'admin']);
    const listing = await w.listing();
    const { instance } = (
      await v1(owner.key, 'POST', '/instances', { gpuListingId: listing.id })
    ).json();
    for (const [method, path] of [
      ['GET', `/instances/${instance.id}`],
      ['PATCH', `/instances/${instance.id}/stop`],
      ['POST', `/instances/${instance.id}/start`],
      ['DELETE', `/instances/${instance.id}`],
      ['PUT', `/rentals/${instance.id}`],
    ] as const) {
      const res = await v1(
        other.key,
        method,
        path,
        method === 'PUT' ? { action: 'stop' } : undefined,
      );
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.body).not.toContain(owner.userId);
    }
    expect((await v1(other.key, 'GET', '/instances')).json().instances).toEqual([]);
    expect((await v1(other.key, 'GET', '/rentals?status=all')).json().rentals).toEqual([]);
    expect((await v1(other.key, 'GET', '/account/usage')).json().instances).toEqual([]);
  });

  it('lists paginate with a cursor, newest first', async () => {
    const me = await caller(['read', 'write'], '500.00');
    const listing = await w.listing({ totalCount: 5, hourlyRate: '1.00' });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id })).json().instance.id,
      );
    }
    const first = (await v1(me.key, 'GET', '/instances?limit=2')).json();
    expect(first.instances.map((i: { id: number }) => i.id)).toEqual([ids[2], ids[1]]);
    const second = (
      await v1(me.key, 'GET', `/instances?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.instances.map((i: { id: number }) => i.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    const bad = await v1(me.key, 'GET', '/instances?cursor=garbage');
    expect(bad.statusCode).toBe(400);
  });
});

describe('idempotency with API keys', () => {
  it('a replay returns the stored answer; another body 422; scoped to the key’s user', async () => {
    const me = await caller();
    const listing = await w.listing({ totalCount: 4 });
    const headers = { 'idempotency-key': 'create-1' };
    const first = await v1(
      me.key,
      'POST',
      '/instances',
      { gpuListingId: listing.id, durationHours: 1 },
      headers,
    );
    expect(first.statusCode).toBe(201);
    const replay = await v1(
      me.key,
      'POST',
      '/instances',
      { gpuListingId: listing.id, durationHours: 1 },
      headers,
    );
    expect(replay.statusCode).toBe(201);
    expectReplayOf(replay, first);
    const mine = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.userId, me.userId));
    expect(mine).toHaveLength(1);
    const other = await v1(
      me.key,
      'POST',
      '/instances',
      { gpuListingId: listing.id, durationHours: 2 },
      headers,
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another user's same key is their own.
    const someone = await caller();
    const theirs = await v1(
      someone.key,
      'POST',
      '/instances',
      { gpuListingId: listing.id, durationHours: 1 },
      headers,
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().instance.id).not.toBe(first.json().instance.id);
    // Stops and deletes too.
    const id = first.json().instance.id;
    const stop = { 'idempotency-key': 'stop-1' };
    const s1 = await v1(me.key, 'PATCH', `/instances/${id}/stop`, undefined, stop);
    const s2 = await v1(me.key, 'PATCH', `/instances/${id}/stop`, undefined, stop);
    expectReplayOf(s2, s1);
  });
});

describe('rentals: the documentation page’s older reading', () => {
  it('POST {gpuListingId, duration}, GET the active ones, PUT {action: "stop"}', async () => {
    const me = await caller(['read', 'write'], '50.00');
    const listing = await w.listing({ hourlyRate: '2.00' });
    const created = await v1(me.key, 'POST', '/rentals', { gpuListingId: listing.id, duration: 2 });
    expect(created.statusCode).toBe(201);
    const rental = created.json().rental;
    expect(rental).toMatchObject({ durationHours: 2, totalCost: '4.00', status: 'active' });
    expect((await v1(me.key, 'GET', '/rentals')).json().rentals).toHaveLength(1);
    const put = await v1(me.key, 'PUT', `/rentals/${rental.id}`, { action: 'stop' });
    expect(put.statusCode).toBe(200);
    expect(put.json().rental.status).toBe('cancelled');
    expect((await v1(me.key, 'GET', '/rentals')).json().rentals).toEqual([]);
    expect((await v1(me.key, 'GET', '/rentals?status=cancelled')).json().rentals).toHaveLength(1);
    const bad = await v1(me.key, 'PUT', `/rentals/${rental.id}`, { action: 'grow' });
    expect(bad.statusCode).toBe(400);
    const asText = await v1(me.key, 'POST', '/rentals', {
      gpuListingId: listing.id,
      duration: '2',
    });
    expect(asText.statusCode).toBe(400);
  });
});

describe('account, usage, SSH keys, API keys', () => {
  it('account and usage', async () => {
    const me = await caller(['read', 'write'], '20.00');
    const account = (await v1(me.key, 'GET', '/account')).json();
    expect(account).toMatchObject({
      id: me.userId,
      balance: '20.00',
      currency: 'USD',
      apiKey: {
        id: me.keyId,
        permissions: ['read', 'write'],
        rateTier: 'standard',
        requestsPerHour: 1000,
      },
    });
    const listing = await w.listing({ hourlyRate: '1.00' });
    await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id, durationHours: 3 });
    const usage = (await v1(me.key, 'GET', '/account/usage')).json();
    expect(usage).toMatchObject({ currency: 'USD', totalCost: '5.50' });
    expect(usage.instances[0]).toMatchObject({ billingPlan: 'booked', cost: '5.50' });
  });

  it('SSH keys: add, list, remove; API keys: revoke with admin', async () => {
    const me = await caller(['read', 'write', 'admin']);
    const added = await v1(me.key, 'POST', '/ssh-keys', { name: 'laptop', publicKey: ED25519 });
    expect(added.statusCode).toBe(201);
    const { sshKey } = added.json();
    expect((await v1(me.key, 'GET', '/ssh-keys')).json().sshKeys).toHaveLength(1);
    const listing = await w.listing();
    const withKey = await v1(me.key, 'POST', '/instances', {
      gpuListingId: listing.id,
      sshKeyId: sshKey.id,
    });
    expect(withKey.statusCode).toBe(201);
    expect((await v1(me.key, 'DELETE', `/ssh-keys/${sshKey.id}`)).statusCode).toBe(204);
    expect((await v1(me.key, 'GET', '/ssh-keys')).json().sshKeys).toEqual([]);

    expect((await v1(me.key, 'DELETE', `/api-keys/${me.keyId}`)).statusCode).toBe(204);
    expect((await v1(me.key, 'GET', '/account')).statusCode).toBe(401);
  });
});
