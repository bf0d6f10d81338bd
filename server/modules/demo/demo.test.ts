import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type UserSettings } from '../../../shared/contracts/settings';
import { gpuListings, instances, ledgerTransactions, users } from '../../db/schema';
import { seedDemoData } from '../../seed/seed';
import { createTestApp, type TestApp } from '../../test/app';
import { ed25519PublicKey } from '../../test/ssh';
import { world } from '../../test/world';
import { ledgerService } from '../ledger/service';

let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  t = await createTestApp();
  w = world(t);
  // The public demo world (the shared "Demo User" with its public "Demo Compute Co.").
  await seedDemoData(t.database.db, t.app.deps, t.clock.now());
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;
let ipSeq = 0;

interface Visitor {
  cookie: string;
  userId: string;
  providerId: number;
}

/** Presses Demo Login from a browser of its own (its own IP, so the limit stays out of it). */
async function demoLogin(remoteAddress = `10.1.0.${++ipSeq}`, cookie?: string): Promise<Visitor> {
  const res = await t.request({
    method: 'POST',
    url: '/api/login',
    remoteAddress,
    ...(cookie ? { cookie } : {}),
  });
  expect(res.statusCode).toBe(200);
  const token = /rentgpu_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
  const session = `rentgpu_session=${token}`;
  const userId = res.json().user.id as string;
  const provider = await t.request({
    method: 'GET',
    url: `/api/providers/user/${userId}`,
    cookie: session,
  });
  expect(provider.statusCode).toBe(200);
  return { cookie: session, userId, providerId: provider.json().id };
}

const me = async (v: Visitor) =>
  (await t.request({ method: 'GET', url: '/api/auth/user', cookie: v.cookie })).json();
const myListings = async (v: Visitor) =>
  (
    await t.request({
      method: 'GET',
      url: `/api/gpu-listings?providerId=${v.providerId}&limit=100`,
      cookie: v.cookie,
    })
  ).json() as { id: number; providerId: number; hourlyRate: string; availableCount: number }[];
const marketplace = async (cookie?: string) =>
  (
    await t.request({
      method: 'GET',
      url: '/api/gpu-listings?limit=100',
      ...(cookie ? { cookie } : {}),
    })
  ).json() as { id: number; providerId: number }[];

function rentBody(listing: { id: number; providerId: number; hourlyRate: string }, hours = 48) {
  return {
    gpuListingId: listing.id,
    providerId: listing.providerId,
    durationHours: hours,
    hourlyRate: listing.hourlyRate,
    totalCost: (Number(listing.hourlyRate) * hours).toFixed(2),
  };
}

describe('Demo Login', () => {
  it('gives each visitor a fresh account with $100.00 and a demo provider of its own, named as theirs', async () => {
    const a = await demoLogin();
    const b = await demoLogin();
    expect(a.userId).not.toBe(b.userId);
    expect(a.providerId).not.toBe(b.providerId);
    for (const v of [a, b]) {
      expect(await me(v)).toMatchObject({
        firstName: 'Demo',
        lastName: 'User',
        credits: '100.00',
        isProvider: true,
      });
      expect((await me(v)).email).toMatch(/^demo-[0-9a-f]{16}@demo\.rentgpu\.invalid$/);
      const provider = await t.request({
        method: 'GET',
        url: `/api/providers/user/${v.userId}`,
        cookie: v.cookie,
      });
      expect(provider.json()).toMatchObject({ companyName: 'Your demo provider' });
      const listings = await myListings(v);
      expect(listings).toHaveLength(3);
      expect(listings.every((l) => l.providerId === v.providerId)).toBe(true);
    }
    expect(await w.invariants()).toEqual([]);
  });

  it('keeps the account of a browser already signed into its own demo account', async () => {
    const a = await demoLogin();
    const again = await demoLogin('10.9.9.9', a.cookie);
    expect(again.userId).toBe(a.userId);
    expect(again.cookie).not.toBe(a.cookie);
  });

  it('makes at most 10 demo accounts per IP and hour, then answers 429', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 10; i += 1) await demoLogin(ip);
    const refused = await t.request({ method: 'POST', url: '/api/login', remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    // Another address is not held back.
    await demoLogin('10.2.0.2');
  });
});

describe('two demo visitors', () => {
  it('never see or change what the other owns', async () => {
    const a = await demoLogin();
    const b = await demoLogin();
    const bListingsBefore = await myListings(b);
    const bSettingsBefore = (
      await t.request({ method: 'GET', url: `/api/users/${b.userId}/settings`, cookie: b.cookie })
    ).json();

    // A rents from its own demo provider and from a public provider.
    const [own] = await myListings(a);
    if (!own) throw new Error('no sandbox listing');
    const rentOwn = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: rentBody(own, 2),
      cookie: a.cookie,
    });
    expect(rentOwn.statusCode).toBe(201);
    // A changes its profile, settings, theme, keys and its provider's listing.
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/api/users/${a.userId}`,
          payload: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' },
          cookie: a.cookie,
        })
      ).statusCode,
    ).toBe(200);
    const settings: UserSettings = structuredClone(DEFAULT_SETTINGS);
    settings.preferences.currency = 'EUR';
    settings.notifications.marketingEmails = true;
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/api/users/${a.userId}/settings`,
          payload: settings,
          cookie: a.cookie,
        })
      ).statusCode,
    ).toBe(200);
    await t.request({
      method: 'PATCH',
      url: '/api/user/theme',
      payload: { theme: 'pastel' },
      cookie: a.cookie,
    });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/api-keys',
          payload: { name: 'mine', permissions: ['read'] },
          cookie: a.cookie,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/ssh-keys',
          payload: { name: 'Laptop', publicKey: ed25519PublicKey('ada@laptop') },
          cookie: a.cookie,
        })
      ).statusCode,
    ).toBe(201);
    const [, second] = await myListings(a);
    if (!second) throw new Error('no second sandbox listing');
    const edit = await t.request({
      method: 'PATCH',
      url: `/api/gpu-listings/${second.id}`,
      payload: { hourlyRate: '9.99' },
      cookie: a.cookie,
    });
    expect(edit.statusCode).toBe(200);

    // A sees its changes.
    expect(await me(a)).toMatchObject({ firstName: 'Ada', theme: 'pastel', credits: '94.60' });
    // B sees none of them.
    expect(await me(b)).toMatchObject({
      firstName: 'Demo',
      lastName: 'User',
      theme: 'dark',
      credits: '100.00',
    });
    expect(await myListings(b)).toEqual(bListingsBefore);
    expect(
      (
        await t.request({ method: 'GET', url: `/api/users/${b.userId}/settings`, cookie: b.cookie })
      ).json(),
    ).toEqual(bSettingsBefore);
    expect(
      (await t.request({ method: 'GET', url: '/api/auth/api-keys', cookie: b.cookie })).json(),
    ).toEqual([]);
    expect(
      (await t.request({ method: 'GET', url: '/api/ssh-keys', cookie: b.cookie })).json(),
    ).toEqual([]);
    expect(
      (
        await t.request({ method: 'GET', url: `/api/rentals/user/${b.userId}`, cookie: b.cookie })
      ).json(),
    ).toEqual([]);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/rentals/provider/${b.providerId}`,
          cookie: b.cookie,
        })
      ).json(),
    ).toEqual([]);

    // Neither sees the other's demo provider: not in the marketplace, not by its id, not to rent.
    const aIds = new Set((await myListings(a)).map((l) => l.id));
    const bIds = new Set(bListingsBefore.map((l) => l.id));
    const seenByB = (await marketplace(b.cookie)).map((l) => l.id);
    expect(seenByB.some((id) => aIds.has(id))).toBe(false);
    expect(seenByB.some((id) => bIds.has(id))).toBe(true);
    const aByB = await t.request({
      method: 'GET',
      url: `/api/gpu-listings?providerId=${a.providerId}`,
      cookie: b.cookie,
    });
    expect(aByB.json()).toEqual([]);
    const steal = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: rentBody({ ...second, hourlyRate: '9.99' }, 1),
      cookie: b.cookie,
    });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().error.code).toBe('NOT_FOUND');
    const touch = await t.request({
      method: 'PATCH',
      url: `/api/gpu-listings/${second.id}`,
      payload: { hourlyRate: '0.01' },
      cookie: b.cookie,
    });
    expect(touch.statusCode).toBe(403);
    expect((await myListings(a)).find((l) => l.id === second.id)?.hourlyRate).toBe('9.99');

    // The public marketplace (signed out, or a real user) shows no visitor's demo provider.
    const publicIds = (await marketplace()).map((l) => l.id);
    expect(publicIds.some((id) => aIds.has(id) || bIds.has(id))).toBe(false);
    const real = await t.signIn();
    const seenByReal = (await marketplace(real.cookie)).map((l) => l.id);
    expect(seenByReal).toEqual(publicIds);
    expect(await w.invariants()).toEqual([]);
  });

  it('keep the public marketplace figures free of demo providers', async () => {
    const stats = async () =>
      (await t.request({ method: 'GET', url: '/api/marketplace/stats' })).json();
    const before = await stats();
    const a = await demoLogin();
    const [own] = await myListings(a);
    if (!own) throw new Error('no sandbox listing');
    await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: rentBody(own, 1),
      cookie: a.cookie,
    });
    expect(await stats()).toEqual(before);
  });
});

describe('deleting a demo account', () => {
  it('is allowed to its own visitor: closed, sandbox listings off, credits returned', async () => {
    const a = await demoLogin();
    const del = await t.request({
      method: 'DELETE',
      url: `/api/users/${a.userId}`,
      cookie: a.cookie,
    });
    expect(del.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, a.userId));
    expect(row?.deletedAt).not.toBeNull();
    expect(await ledgerService.walletBalance(t.database.db, a.userId)).toBe(0n);
    const live = await t.database.db
      .select()
      .from(gpuListings)
      .where(eq(gpuListings.providerId, a.providerId));
    expect(live.every((l) => l.removedAt !== null)).toBe(true);
    expect(await w.invariants()).toEqual([]);
  });

  it('still refuses for the shared seeded demo account, and no demo account takes a real e-mail', async () => {
    const a = await demoLogin();
    const email = await t.request({
      method: 'PATCH',
      url: `/api/users/${a.userId}`,
      payload: { email: 'mine-now@example.test' },
      cookie: a.cookie,
    });
    expect(email.statusCode).toBe(403);
    expect(email.json().error.message).toBe(
      'A demo account cannot change its e-mail address. Sign in with your own e-mail to do this.',
    );
  });
});

describe('the demo cleanup', () => {
  it('closes a demo account unused for a day, settling its rentals first, and keeps the books right', async () => {
    const start = t.clock.now();
    const idle = await demoLogin();
    const firstVisit = await demoLogin();
    const [own] = await myListings(idle);
    if (!own) throw new Error('no sandbox listing');
    const publicListing = (await marketplace(idle.cookie)).find(
      (l) => l.providerId !== idle.providerId,
    );
    if (!publicListing) throw new Error('no public listing');
    const rented = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: rentBody(own, 48),
      cookie: idle.cookie,
    });
    expect(rented.statusCode).toBe(201);
    await t.app.deps.worker.runOnce(new Date(start.getTime() + HOUR)); // instance ready

    // Not yet a day: nothing happens.
    t.clock.advance(23 * HOUR);
    expect(await t.app.deps.account.closeUnusedDemoAccounts(100)).toBe(0);
    // The other visitor comes back within the day: Demo Login again keeps its account.
    const used = await demoLogin('10.3.0.1', firstVisit.cookie);
    expect(used.userId).toBe(firstVisit.userId);

    t.clock.advance(2 * HOUR);
    // (The visitors of the tests above are a day old by now too.)
    const closed = await t.app.deps.account.closeUnusedDemoAccounts(100);
    expect(closed).toBeGreaterThanOrEqual(1);
    // The booked rental was settled at once; its host then confirms the machine is gone.
    await t.app.deps.worker.runOnce(t.clock.now());

    const [account] = await t.database.db.select().from(users).where(eq(users.id, idle.userId));
    expect(account).toMatchObject({ firstName: null, lastName: null });
    expect(account?.deletedAt).not.toBeNull();
    expect(account?.email).toMatch(/@deleted\.rentgpu\.invalid$/);
    const [rental] = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.id, rented.json().id));
    expect(rental).toMatchObject({ status: 'terminated', endReason: 'demo_cleanup' });
    expect(await ledgerService.walletBalance(t.database.db, idle.userId)).toBe(0n);
    const expired = await t.database.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, `demo-account:${idle.userId}`));
    expect(expired).toHaveLength(1);
    const listings = await t.database.db
      .select()
      .from(gpuListings)
      .where(eq(gpuListings.providerId, idle.providerId));
    expect(listings.every((l) => l.removedAt !== null)).toBe(true);
    const after = await t.request({ method: 'GET', url: '/api/auth/user', cookie: idle.cookie });
    expect(after.statusCode).toBe(401);
    expect(await w.invariants()).toEqual([]);

    // The visitor who came back keeps everything; the shared demo account is never touched.
    expect(await me(used)).toMatchObject({ firstName: 'Demo', credits: '100.00' });
    const shared = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'demo@rentgpu.dev'));
    expect(shared[0]?.deletedAt).toBeNull();

    // Running it again closes nothing twice.
    expect(await t.app.deps.account.closeUnusedDemoAccounts(100)).toBe(0);
    expect(await w.invariants()).toEqual([]);
  });
});
