import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const create = (cookie: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/auth/api-keys', payload, cookie });
const list = (cookie: string) => t.request({ method: 'GET', url: '/api/auth/api-keys', cookie });
/** Through the app's own memory of keys, as the public API authenticates. */
const authenticate = (key: string) => t.app.deps.apiKeys.authenticate(key, t.clock.now());

describe('POST /api/auth/api-keys', () => {
  it('shows the full key once, then only its prefix', async () => {
    const { cookie } = await t.signIn();
    const res = await create(cookie, { name: 'Production', permissions: ['write', 'read'] });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(created.key).toMatch(/^rgpu_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'Production',
      permissions: ['read', 'write'],
      rateTier: 'standard',
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const listed = (await list(cookie)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('key');
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('stores only a hash: the key appears nowhere in the database', async () => {
    const { cookie, userId } = await t.signIn();
    const { key } = (await create(cookie, { name: 'secret' })).json();
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
    expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.slice(13));
    const dump = await t.database.db.execute(sql`select t::text as row from api_keys t`);
    const text = JSON.stringify((dump as unknown as { rows: unknown[] }).rows);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(13));
  });

  it('defaults to read permission and refuses bad input', async () => {
    const { cookie } = await t.signIn();
    expect((await create(cookie, { name: 'default' })).json().permissions).toEqual(['read']);
    for (const payload of [
      {},
      { name: '   ' },
      { name: 'x'.repeat(61) },
      { name: 'ok', permissions: [] },
      { name: 'ok', permissions: ['root'] },
    ]) {
      const res = await create(cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('records when a key was last used, and authenticates its owner and rights', async () => {
    const { cookie, userId } = await t.signIn();
    const { key, id } = (
      await create(cookie, { name: 'cli', permissions: ['read', 'admin'] })
    ).json();
    expect(await authenticate(key)).toEqual({
      keyId: id,
      userId,
      permissions: ['read', 'admin'],
      rateTier: 'standard',
    });
    expect((await list(cookie)).json()[0].lastUsedAt).toBe(t.clock.now().toISOString());
    expect(await authenticate(`${key}x`)).toBeNull();
    expect(await authenticate('not-a-key')).toBeNull();
  });
});

describe('DELETE /api/auth/api-keys/:id', () => {
  it('revokes at once: the key stops working and leaves the list', async () => {
    const { cookie } = await t.signIn();
    const { key, id } = (await create(cookie, { name: 'old' })).json();
    expect(await authenticate(key)).not.toBeNull();
    const res = await t.request({ method: 'DELETE', url: `/api/auth/api-keys/${id}`, cookie });
    expect(res.statusCode).toBe(204);
    expect(await authenticate(key)).toBeNull();
    expect((await list(cookie)).json()).toEqual([]);
    const again = await t.request({ method: 'DELETE', url: `/api/auth/api-keys/${id}`, cookie });
    expect(again.statusCode).toBe(404);
  });

  it("cannot revoke another user's key (404) and never lists it", async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    const { key, id } = (await create(owner.cookie, { name: 'mine' })).json();
    const res = await t.request({
      method: 'DELETE',
      url: `/api/auth/api-keys/${id}`,
      cookie: other.cookie,
    });
    expect(res.statusCode).toBe(404);
    expect(await authenticate(key)).not.toBeNull();
    expect((await list(other.cookie)).json()).toEqual([]);
  });

  it('an expired key (rotation policy) stops working', async () => {
    const { cookie, userId } = await t.signIn();
    const { key } = (await create(cookie, { name: 'rotating' })).json();
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: t.clock.now() })
      .where(eq(apiKeys.userId, userId));
    expect(await authenticate(key)).toBeNull();
  });

  it('needs a session for every key route', async () => {
    expect((await t.request({ method: 'GET', url: '/api/auth/api-keys' })).statusCode).toBe(401);
    expect((await create('', { name: 'x' })).statusCode).toBe(401);
  });
});
