import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gpuListings, instances } from '../../db/schema';
import { createHost, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { world } from '../../test/world';

let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  t = await createTestApp({
    env: { DEMO_PROVISIONING_DELAY_MS: '15000', PROVISIONING_TIMEOUT_MS: '600000' },
  });
  w = world(t);
});
afterEach(async () => {
  expect(await w.invariants()).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

async function rent(cookie: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/rentals', payload: body, cookie });
}

async function listingRow(id: number) {
  const [row] = await t.database.db.select().from(gpuListings).where(eq(gpuListings.id, id));
  if (!row) throw new Error('listing gone');
  return row;
}

describe('POST /api/rentals', () => {
  it('holds the booked hours in escrow, charges the storage add-on and takes one unit', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.45', totalCount: 3 });
    const res = await rent(renter.cookie, w.rentBody(listing, 10));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'active',
      phase: 'provisioning',
      durationHours: 10,
      hourlyRate: '1.45',
      totalCost: '14.50',
      storageFee: '2.50',
      sshHost: null,
      gpuListing: { model: 'RTX 4090' },
    });
    expect(await w.balance(renter.cookie)).toBe('83.00');
    expect((await listingRow(listing.id)).availableCount).toBe(2);
  });

  it('refuses a price or total that differs from the server quote, with the quote', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '2.00' });
    const res = await rent(renter.cookie, {
      ...w.rentBody(listing, 3),
      hourlyRate: '1.00',
      totalCost: '3.00',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'QUOTE_MISMATCH',
      details: {
        quote: {
          hourlyRate: '2.00',
          durationHours: 3,
          totalCost: '6.00',
          storageFee: '2.50',
          grandTotal: '8.50',
        },
      },
    });
    const total = await rent(renter.cookie, { ...w.rentBody(listing, 3), totalCost: '5.99' });
    expect(total.statusCode).toBe(409);
    expect(await w.balance(renter.cookie)).toBe('100.00');
    // The unit the launch's first statement took went back with the refusal.
    expect((await listingRow(listing.id)).availableCount).toBe(4);
    expect((await listingRow(listing.id)).status).toBe('available');
  });

  it('accepts the quote however many decimals the client wrote', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.50' });
    const res = await rent(renter.cookie, {
      ...w.rentBody(listing, 2),
      hourlyRate: 1.5,
      totalCost: 3,
    });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    [0, 'Minimum 1 hour, maximum 30 days (720 hours)'],
    [721, 'Minimum 1 hour, maximum 30 days (720 hours)'],
    [1.5, 'Whole hours only'],
  ])('refuses %s hours', async (hours, message) => {
    const renter = await t.signIn({ credits: '10000.00' });
    const listing = await w.listing();
    const res = await rent(renter.cookie, { ...w.rentBody(listing, 1), durationHours: hours });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.durationHours).toEqual([message]);
  });

  it.each(['gpuListingId', 'providerId', 'durationHours', 'hourlyRate', 'totalCost'])(
    'refuses a body without %s',
    async (field) => {
      const renter = await t.signIn({ credits: '100.00' });
      const listing = await w.listing();
      const body: Record<string, unknown> = w.rentBody(listing, 1);
      delete body[field];
      const res = await rent(renter.cookie, body);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().error.details.fields)).toContain(field);
    },
  );

  it('refuses a provider id that is not the listing’s', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing();
    const res = await rent(renter.cookie, {
      ...w.rentBody(listing, 1),
      providerId: listing.providerId + 999,
    });
    expect(res.statusCode).toBe(400);
    expect((await listingRow(listing.id)).availableCount).toBe(4);
  });

  it('answers INSUFFICIENT_CREDITS with the required and available amounts, charging nothing', async () => {
    const renter = await t.signIn({ credits: '5.00' });
    const listing = await w.listing({ hourlyRate: '1.50', totalCount: 1 });
    const res = await rent(renter.cookie, w.rentBody(listing, 2));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: '5.50', available: '5.00', currency: 'USD' },
    });
    expect(await w.balance(renter.cookie)).toBe('5.00');
    expect((await listingRow(listing.id)).availableCount).toBe(1);
  });

  it('answers INSUFFICIENT_CREDITS to a second rent the wallet cannot pay, writing nothing', async () => {
    const renter = await t.signIn({ credits: '10.00' });
    const first = await w.listing({ hourlyRate: '1.00', totalCount: 1 });
    expect((await rent(renter.cookie, w.rentBody(first, 2))).statusCode).toBe(201);
    expect(await w.balance(renter.cookie)).toBe('5.50');
    const second = await w.listing({ hourlyRate: '1.50', totalCount: 1 });
    const res = await rent(renter.cookie, w.rentBody(second, 3));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: '7.00', available: '5.50', currency: 'USD' },
    });
    expect(await w.balance(renter.cookie)).toBe('5.50');
    expect((await listingRow(second.id)).availableCount).toBe(1);
    const made = await t.database.db
      .select({ id: instances.id })
      .from(instances)
      .where(eq(instances.gpuListingId, second.id));
    expect(made).toEqual([]);
  });

  it('refuses a rented-out or maintenance listing, and an unknown one', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const last = await w.listing({ totalCount: 1 });
    expect((await rent(renter.cookie, w.rentBody(last, 1))).statusCode).toBe(201);
    expect((await listingRow(last.id)).status).toBe('rented');
    const again = await rent(renter.cookie, w.rentBody(last, 1));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('LISTING_UNAVAILABLE');

    const down = await w.listing({ status: 'maintenance' });
    expect((await rent(renter.cookie, w.rentBody(down, 1))).statusCode).toBe(409);
    expect(
      (await rent(renter.cookie, { ...w.rentBody(down, 1), gpuListingId: 999999 })).statusCode,
    ).toBe(404);
  });

  it('answers 401 signed out', async () => {
    const listing = await w.listing();
    expect((await rent('', w.rentBody(listing, 1))).statusCode).toBe(401);
  });
});

describe('provisioning', () => {
  it('makes a demo host ready after the delay on a port no other active rental uses', async () => {
    const a = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ totalCount: 3 });
    const first = (await rent(a.cookie, w.rentBody(listing, 1))).json();
    const second = (await rent(a.cookie, w.rentBody(listing, 1))).json();
    await t.app.deps.worker.runOnce(t.clock.now());
    const list = async () =>
      (
        await t.request({ method: 'GET', url: `/api/rentals/user/${a.userId}`, cookie: a.cookie })
      ).json();
    expect((await list()).every((r: { phase: string }) => r.phase === 'provisioning')).toBe(true);

    t.clock.advance(15_000);
    const done = await t.app.deps.worker.runOnce(t.clock.now());
    expect(done['demo-host']).toBeGreaterThanOrEqual(2);
    const ready = (await list()).filter(
      (r: { id: number }) => r.id === first.id || r.id === second.id,
    );
    expect(ready.map((r: { phase: string }) => r.phase)).toEqual(['ready', 'ready']);
    expect(ready[0].sshHost).toBe(`gpu-${listing.id}.demo.rentgpu.dev`);
    expect(ready[0].sshPort).not.toBe(ready[1].sshPort);
  });

  it('cancels with a full refund a rental not ready within the limit', async () => {
    const renter = await t.signIn({ credits: '50.00' });
    const providerId = (await createProvider(t.database.db, {})).id;
    const host = await createHost(t.database.db, { providerId, lastHeartbeatAt: t.clock.now() });
    const listing = await w.listing({ hourlyRate: '3.00', providerId, hostId: host.id });
    const created = (await rent(renter.cookie, w.rentBody(listing, 4))).json();
    expect(await w.balance(renter.cookie)).toBe('35.50');
    t.clock.advance(10 * 60_000);
    const done = await t.app.deps.worker.runOnce(t.clock.now());
    expect(done['provisioning-deadline']).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, created.id));
    expect(row).toMatchObject({ status: 'failed', endReason: 'provisioning_timeout' });
    expect(await w.balance(renter.cookie)).toBe('50.00');
    expect((await listingRow(listing.id)).availableCount).toBe(4);
  });
});

describe('PATCH /api/rentals/:id/stop', () => {
  async function readyRental(hours: number, rate = '1.50', credits = '100.00') {
    const renter = await t.signIn({ credits });
    const owner = await w.provider();
    const listing = await w.listing({ hourlyRate: rate, providerId: owner.providerId });
    const created = (await rent(renter.cookie, w.rentBody(listing, hours))).json();
    t.clock.advance(15_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    return { renter, owner, listing, rental: created as { id: number } };
  }

  it('charges the used seconds rounded up to the cent, pays the provider less 10%, refunds the rest', async () => {
    const { renter, owner, listing, rental } = await readyRental(10, '3.60');
    t.clock.advance(30 * 60_000 + 1_000); // 30 min 1 s after it was ready (its hours' start)
    const res = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.id}/stop`,
      cookie: renter.cookie,
    });
    expect(res.statusCode).toBe(200);
    // 1801 s at $3.60/h = $1.801 → $1.81; booked $36.00 → refund $34.19.
    expect(res.json()).toMatchObject({
      status: 'completed',
      phase: 'ended',
      usedCost: '1.81',
      refund: '34.19',
      settledBy: 'user',
    });
    expect(await w.balance(renter.cookie)).toBe((100 - 36 - 2.5 + 34.19).toFixed(2));
    expect((await listingRow(listing.id)).availableCount).toBe(4);
    const earnings = await t.request({
      method: 'GET',
      url: `/api/rentals/provider/${owner.providerId}`,
      cookie: owner.cookie,
    });
    expect(earnings.json()[0]).toMatchObject({ id: rental.id, usedCost: '1.81' });
  });

  it('is idempotent: a second stop changes nothing and charges nothing', async () => {
    const { renter, rental } = await readyRental(2);
    t.clock.advance(60_000);
    const first = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.id}/stop`,
      cookie: renter.cookie,
    });
    const balance = await w.balance(renter.cookie);
    t.clock.advance(60 * 60_000);
    const second = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.id}/stop`,
      cookie: renter.cookie,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await w.balance(renter.cookie)).toBe(balance);
  });

  it('gives each rental of a demo listing the lowest GPU no live one holds; none free is 409 and charges nothing', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.00', totalCount: 3 });
    const rowOf = async (id: number) =>
      (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0];
    const first = (await rent(renter.cookie, w.rentBody(listing, 1))).json();
    const second = (await rent(renter.cookie, w.rentBody(listing, 1))).json();
    expect([(await rowOf(first.id))?.gpuIndexes, (await rowOf(second.id))?.gpuIndexes]).toEqual([
      [0],
      [1],
    ]);
    // A stopping instance still holds its GPU until its host lets go (ADR 020)...
    await t.database.db
      .update(instances)
      .set({ status: 'stopping' })
      .where(eq(instances.id, first.id));
    expect((await rent(renter.cookie, w.rentBody(listing, 1))).json().id).toBeDefined();
    const held = await w.balance(renter.cookie);
    const refused = await rent(renter.cookie, w.rentBody(listing, 1));
    // ...so with a unit left by count but every GPU held, the launch is refused and rolled back.
    await t.database.db
      .update(gpuListings)
      .set({ availableCount: 1, status: 'available' })
      .where(eq(gpuListings.id, listing.id));
    const none = await rent(renter.cookie, w.rentBody(listing, 1));
    expect(refused.statusCode).toBe(409);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({
      error: {
        code: 'CAPACITY_UNAVAILABLE',
        message: expect.stringMatching(/^Every GPU of this listing is in use right now/),
      },
    });
    expect(await w.balance(renter.cookie)).toBe(held);
    expect((await listingRow(listing.id)).availableCount).toBe(1);
    // Once it has let go, its GPU is the lowest free one again.
    await t.database.db
      .update(instances)
      .set({ status: 'stopped' })
      .where(eq(instances.id, first.id));
    const next = (await rent(renter.cookie, w.rentBody(listing, 1))).json();
    expect((await rowOf(next.id))?.gpuIndexes).toEqual([0]);
  });

  it('cancels with a full refund when stopped before the instance is ready', async () => {
    const renter = await t.signIn({ credits: '20.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    const created = (await rent(renter.cookie, w.rentBody(listing, 5))).json();
    const res = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${created.id}/stop`,
      cookie: renter.cookie,
    });
    expect(res.json()).toMatchObject({ status: 'cancelled', usedCost: '0.00', refund: '7.50' });
    expect(await w.balance(renter.cookie)).toBe('20.00');
  });

  it('answers 404 for another user’s rental and for an unknown one', async () => {
    const { rental } = await readyRental(1);
    const other = await t.signIn();
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/api/rentals/${rental.id}/stop`,
          cookie: other.cookie,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'PATCH', url: '/api/rentals/999999/stop', cookie: other.cookie }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'PATCH', url: '/api/rentals/abc/stop', cookie: other.cookie }))
        .statusCode,
    ).toBe(400);
  });

  it('completes a rental at the end of its hours, charging exactly the booking', async () => {
    const { renter, rental } = await readyRental(2, '2.00', '10.00');
    expect(await w.balance(renter.cookie)).toBe('3.50');
    t.clock.advance(2 * 3_600_000);
    const done = await t.app.deps.worker.runOnce(t.clock.now());
    expect(done['booked-expiry']).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, rental.id));
    expect(row).toMatchObject({
      status: 'terminating',
      endReason: 'expiry',
      usedSeconds: 7200,
      usedCostMicros: 4_000_000n,
      refundMicros: 0n,
    });
    expect(await w.balance(renter.cookie)).toBe('3.50');
  });
});

describe('who may read rentals', () => {
  it('GET /api/rentals/user/:userId answers 403 unless it is the caller', async () => {
    const a = await t.signIn();
    const b = await t.signIn();
    expect(
      (await t.request({ method: 'GET', url: `/api/rentals/user/${a.userId}`, cookie: a.cookie }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `/api/rentals/user/${a.userId}`, cookie: b.cookie }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: `/api/rentals/user/${a.userId}` })).statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api/rentals/user/not-a-uuid', cookie: a.cookie }))
        .statusCode,
    ).toBe(400);
  });

  it('GET /api/rentals/provider/:id answers only for the caller’s own provider', async () => {
    const owner = await w.provider();
    const other = await w.provider();
    const renter = await t.signIn();
    const url = `/api/rentals/provider/${owner.providerId}`;
    expect((await t.request({ method: 'GET', url, cookie: owner.cookie })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url, cookie: other.cookie })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url, cookie: renter.cookie })).statusCode).toBe(403);
  });
});

describe('the billing worker', () => {
  it('keeps its state in the database: a restarted server completes what the old one left', async () => {
    const renter = await t.signIn({ credits: '30.00' });
    const listing = await w.listing({ hourlyRate: '2.00' });
    const created = (await rent(renter.cookie, w.rentBody(listing, 1))).json();
    await t.app.deps.worker.runOnce(new Date(t.clock.now().getTime() + 20_000));

    // A second app on the same database stands in for the process after a restart.
    const { createApp } = await import('../../app');
    const { parseEnv } = await import('../../env');
    const restarted = await createApp({
      env: parseEnv({ NODE_ENV: 'test' }),
      database: t.database,
      clock: t.clock,
      logger: false,
      webDir: null,
    });
    try {
      t.clock.advance(2 * 3_600_000);
      const done = await restarted.deps.worker.runOnce(t.clock.now());
      expect(done['booked-expiry']).toBeGreaterThanOrEqual(1);
      const [row] = await t.database.db
        .select()
        .from(instances)
        .where(eq(instances.id, created.id));
      expect(row).toMatchObject({ status: 'terminating', endReason: 'expiry' });
    } finally {
      await restarted.close();
    }
  });
});
