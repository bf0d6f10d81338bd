import { describe, expect, it } from 'vitest';
import { paymentOrders } from '../../db/schema';
import { testDatabaseUrl } from '../../env';
import type { TestApp } from '../../test/app';
import type { FakePaypal } from '../../test/fake-paypal';
import { type Buyer, setupPaypalTestApp } from '../../test/payments';
import type { World } from '../../test/suite';

/**
 * Repeated and concurrent captures must credit exactly once. They mean most on PostgreSQL
 * (TEST_DATABASE_URL); on PGlite transactions run one at a time.
 */
let fake: FakePaypal;
let t: TestApp;
let w: World;
let b: Buyer;
setupPaypalTestApp((suite) => ({ fake, t, w, b } = suite));

describe(`capture races (${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('20 concurrent captures of one order credit it once', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'enterprise' });
    fake.captureDelayMs = 30;
    const results = await Promise.all(Array.from({ length: 20 }, () => b.capture(cookie, id)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(results.every((r) => r.json().success === true)).toBe(true);
    expect(await w.balance(cookie)).toBe('325.00');
    expect(await b.ledgerLines(id)).toHaveLength(4);
  });

  it('captures racing a webhook for the same order credit it once', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'basic' });
    fake.captureDelayMs = 20;
    const approved = fake.webhook('CHECKOUT.ORDER.APPROVED', { id, status: 'APPROVED' });
    const results = await Promise.all([
      b.capture(cookie, id),
      b.webhook(approved),
      b.capture(cookie, id),
      b.webhook(approved),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await w.balance(cookie)).toBe('27.00');
  });

  it('a dropped answer followed by a failed read-back credits nothing, and the retry credits once', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '42' });
    fake.nextCaptures.push({ kind: 'drop' });
    fake.failReads = 1;
    const lost = await b.capture(cookie, id);
    expect(lost.statusCode).toBe(502);
    expect(await w.balance(cookie)).toBe('0.00');
    const retries = await Promise.all([b.capture(cookie, id), b.capture(cookie, id)]);
    expect(retries.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await w.balance(cookie)).toBe('42.00');
  });

  it('many orders of many users captured at once each credit their own wallet once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => t.signIn()));
    const orders = await Promise.all(
      users.flatMap((u) => [
        b.orderId(u.cookie, { amount: '10' }),
        b.orderId(u.cookie, { amount: '5' }),
      ]),
    );
    await Promise.all(
      orders.flatMap((id, i) => {
        const cookie = users[Math.floor(i / 2)]?.cookie ?? '';
        return [b.capture(cookie, id), b.capture(cookie, id)];
      }),
    );
    for (const u of users) expect(await w.balance(u.cookie)).toBe('15.00');
  });

  it('the database refuses a second order with the same PayPal order or capture id', async () => {
    const { userId } = await t.signIn();
    const row = { userId, amountMicros: 1_000_000n, status: 'created', paypalOrderId: 'DUP-ORDER' };
    await t.database.db.insert(paymentOrders).values(row);
    await expect(t.database.db.insert(paymentOrders).values(row)).rejects.toThrow();
    const captured = {
      userId,
      amountMicros: 1_000_000n,
      status: 'pending',
      paypalCaptureId: 'DUP-CAPTURE',
    };
    await t.database.db.insert(paymentOrders).values({ ...captured, paypalOrderId: 'A1' });
    await expect(
      t.database.db.insert(paymentOrders).values({ ...captured, paypalOrderId: 'A2' }),
    ).rejects.toThrow();
  });
});
