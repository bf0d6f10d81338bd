import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, sessions, sshKeys, users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { type FakePaypal, startFakePaypal } from '../../test/fake-paypal';
import { buyer, paypalEnv } from '../../test/payments';
import { ed25519PublicKey } from '../../test/ssh';
import { world } from '../../test/world';

let fake: FakePaypal;
let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  fake = await startFakePaypal();
  t = await createTestApp({ env: paypalEnv(fake) });
  w = world(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function rent(cookie: string, hours = 1) {
  const listing = await w.listing({ hourlyRate: '2.00' });
  const res = await t.request({
    method: 'POST',
    url: '/api/rentals',
    payload: w.rentBody(listing, hours),
    cookie,
  });
  return res.json();
}

describe('GET /api/users/:userId/export', () => {
  it('downloads everything about the user as a JSON file, with no secrets', async () => {
    const { userId, cookie } = await t.signIn({ firstName: 'Export', credits: '50.00' });
    const { key } = (
      await t.request({ method: 'POST', url: '/api/auth/api-keys', payload: { name: 'k' }, cookie })
    ).json();
    await t.request({
      method: 'POST',
      url: '/api/ssh-keys',
      payload: { name: 's', publicKey: ed25519PublicKey() },
      cookie,
    });
    await rent(cookie);
    const b = buyer(t);
    await b.capture(cookie, await b.orderId(cookie, { amount: '5' }));

    const res = await t.request({ method: 'GET', url: `/api/users/${userId}/export`, cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="rentgpu-account-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = res.json();
    expect(data.profile).toMatchObject({ id: userId, firstName: 'Export' });
    expect(data.settings.preferences.currency).toBe('USD');
    expect(data.rentals).toHaveLength(1);
    expect(data.paymentOrders).toEqual([
      expect.objectContaining({ amount: '5.00', status: 'completed' }),
    ]);
    expect(data.walletEntries.map((e: { type: string }) => e.type)).toEqual([
      'purchase',
      'charge',
      'credit',
    ]);
    expect(data.apiKeys).toHaveLength(1);
    expect(data.sshKeys[0].publicKey).toMatch(/^ssh-ed25519 /);
    expect(res.body).not.toContain(key);
    expect(res.body).not.toMatch(/keyHash|key_hash|tokenHash/);
  });
});

describe('DELETE /api/users/:userId', () => {
  it('is refused with 409 while instances are running', async () => {
    const { userId, cookie } = await t.signIn({ credits: '20.00' });
    const rental = await rent(cookie);
    const res = await t.request({ method: 'DELETE', url: `/api/users/${userId}`, cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'ACTIVE_RENTALS',
      message: 'You have running instances. Stop them before deleting your account.',
    });
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).statusCode).toBe(
      200,
    );
    await t.request({ method: 'PATCH', url: `/api/rentals/${rental.id}/stop`, cookie });
    expect(
      (await t.request({ method: 'DELETE', url: `/api/users/${userId}`, cookie })).statusCode,
    ).toBe(204);
  });

  it('clears personal data, signs out everywhere, drops keys, and keeps the financial records', async () => {
    const email = `closing-${Date.now()}@example.test`;
    const { userId, cookie } = await t.signIn({ email, firstName: 'Closing', credits: '30.00' });
    const second = await t.signIn();
    await t.database.db.update(sessions).set({ userId }).where(eq(sessions.userId, second.userId));
    await t.request({ method: 'POST', url: '/api/auth/api-keys', payload: { name: 'k' }, cookie });
    await t.request({
      method: 'POST',
      url: '/api/ssh-keys',
      payload: { name: 's', publicKey: ed25519PublicKey() },
      cookie,
    });
    const rental = await rent(cookie);
    await t.request({ method: 'PATCH', url: `/api/rentals/${rental.id}/stop`, cookie });
    const entriesBefore = await ledgerEntryCount(userId);

    const res = await t.request({ method: 'DELETE', url: `/api/users/${userId}`, cookie });
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === 'rentgpu_session')?.value).toBe('');
    for (const c of [cookie, second.cookie]) {
      expect(
        (await t.request({ method: 'GET', url: '/api/auth/user', cookie: c })).statusCode,
      ).toBe(401);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({
      email: `deleted-${userId}@deleted.rentgpu.invalid`,
      firstName: null,
      lastName: null,
    });
    expect(row?.deletedAt).not.toBeNull();
    expect(await t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).toEqual(
      [],
    );
    expect(await t.database.db.select().from(sshKeys).where(eq(sshKeys.userId, userId))).toEqual(
      [],
    );
    expect(await ledgerEntryCount(userId)).toBe(entriesBefore);
    expect(await w.invariants()).toEqual([]);

    // The address is free again: signing in with it makes a new, empty account.
    await t.request({ method: 'POST', url: '/api/auth/send-otp', payload: { email } });
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email, otp: t.mailer.lastCodeFor(email) },
    });
    expect(again.json().user).toMatchObject({ credits: '0.00' });
    expect(again.json().user.id).not.toBe(userId);
  });
});

describe('the shared demo account', () => {
  it('cannot be deleted nor have its e-mail changed, so the tests that use it keep working', async () => {
    const { userId, cookie } = await t.signIn({ email: 'demo@rentgpu.dev', isDemo: true });
    const del = await t.request({ method: 'DELETE', url: `/api/users/${userId}`, cookie });
    expect(del.statusCode).toBe(403);
    expect(del.json().error.message).toMatch(/shared demo account cannot be deleted/);
    const email = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { email: 'mine-now@example.test' },
      cookie,
    });
    expect(email.statusCode).toBe(403);
    const name = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { firstName: 'Still Demo' },
      cookie,
    });
    expect(name.statusCode).toBe(200);
  });
});

describe('GET /api/payments/history and /summary', () => {
  it('lists purchases, bonuses and charges from the ledger and sums spending', async () => {
    const { cookie } = await t.signIn();
    const b = buyer(t);
    await b.capture(cookie, await b.orderId(cookie, { packageId: 'basic' }));
    const rental = await rent(cookie, 3);
    const history = (
      await t.request({ method: 'GET', url: '/api/payments/history', cookie })
    ).json().entries;
    expect(history.map((e: { type: string; amount: string }) => `${e.type} ${e.amount}`)).toEqual([
      'charge -8.50',
      'bonus 2.00',
      'purchase 25.00',
    ]);
    const summary = (
      await t.request({ method: 'GET', url: '/api/payments/summary', cookie })
    ).json();
    expect(summary).toMatchObject({
      balance: '18.50',
      thisMonth: '8.50',
      totalSpent: '8.50',
      totalPurchased: '27.00',
      timezone: 'UTC',
    });
    // Stopping before the instance is ready refunds everything: nothing spent.
    await t.request({ method: 'PATCH', url: `/api/rentals/${rental.id}/stop`, cookie });
    const after = (await t.request({ method: 'GET', url: '/api/payments/summary', cookie })).json();
    expect(after).toMatchObject({ balance: '27.00', thisMonth: '0.00', totalSpent: '0.00' });
  });
});

async function ledgerEntryCount(userId: string): Promise<number> {
  const result = await t.database.db.execute(sql`
    select count(*)::int as n from ledger_entries e join ledger_accounts a on a.id = e.account_id
    where a.user_id = ${userId}`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}
