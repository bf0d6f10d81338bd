import { describe, expect, it } from 'vitest';
import { GUESS_LIMITS } from '../../lib/guess-limits';
import { createTestApp, type TestApp } from '../../test/app';
import type { FakePaypal } from '../../test/fake-paypal';
import { type Buyer, buyer, paypalEnv, setupPaypalTestApp } from '../../test/payments';
import type { World } from '../../test/suite';

let fake: FakePaypal;
let t: TestApp;
let w: World;
let b: Buyer;
setupPaypalTestApp((suite) => ({ fake, t, w, b } = suite));

/** The capture PayPal holds for an order, as a PAYMENT.CAPTURE.* resource. */
function captureResource(orderId: string) {
  const capture = fake.orders.get(orderId)?.captures[0];
  if (!capture) throw new Error('no capture at the fake');
  return { ...capture, supplementary_data: { related_ids: { order_id: orderId } } };
}

describe('POST /api/payments/paypal/webhook', () => {
  it('refuses an event whose signature PayPal does not confirm, and changes nothing', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie);
    const forged = fake.webhook('CHECKOUT.ORDER.APPROVED', { id }, { signature: 'forged' });
    const res = await b.webhook(forged);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_WEBHOOK');
    const unsigned = fake.webhook('CHECKOUT.ORDER.APPROVED', { id });
    delete unsigned.headers['paypal-transmission-sig'];
    expect((await b.webhook(unsigned)).statusCode).toBe(400);
    expect(b.captureCalls(fake, id)).toBe(0);
    expect(await w.balance(cookie)).toBe('0.00');
  });

  it('an address whose deliveries keep failing is refused 429 before PayPal is asked; verified ones do not count', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie);
    const from = '203.0.113.66';
    const deliver = (delivery: ReturnType<typeof fake.webhook>, address = from) =>
      t.request({
        method: 'POST',
        url: '/api/payments/paypal/webhook',
        payload: delivery.body,
        headers: delivery.headers,
        remoteAddress: address,
      });
    const { limit } = GUESS_LIMITS.paypalWebhook.perAddress;
    // PayPal's own deliveries pass and are given back: they never use the limit up.
    for (let i = 0; i < limit + 5; i++) {
      const res = await deliver(fake.webhook('PAYMENT.CAPTURE.DENIED', { id: `CAP-${i}` }));
      expect(res.statusCode).toBe(200);
    }
    const verifications = () =>
      fake.calls.filter((c) => c.endsWith('/verify-webhook-signature')).length;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 5; i++) {
      const forged = fake.webhook('CHECKOUT.ORDER.APPROVED', { id }, { signature: 'forged' });
      statuses.push((await deliver(forged)).statusCode);
    }
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(400));
    expect(statuses.slice(limit)).toEqual(Array(5).fill(429));
    const asked = verifications();
    const limited = await deliver(fake.webhook('CHECKOUT.ORDER.APPROVED', { id }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(verifications()).toBe(asked);
    // From another address, PayPal's delivery is handled.
    const other = await deliver(
      fake.webhook('PAYMENT.CAPTURE.DENIED', { id: 'CAP-other' }),
      '203.0.113.67',
    );
    expect(other.statusCode).toBe(200);
    expect(verifications()).toBe(asked + 1);
  });

  it('captures an approved order the browser never reported, once', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'pro' });
    const delivery = fake.webhook('CHECKOUT.ORDER.APPROVED', { id, status: 'APPROVED' });
    const res = await b.webhook(delivery);
    expect(res.json()).toEqual({ received: true, outcome: 'completed' });
    expect(await w.balance(cookie)).toBe('120.00');
    expect((await b.webhook(delivery)).json().outcome).toBe('duplicate');
    const browser = await b.capture(cookie, id);
    expect(browser.json()).toMatchObject({ success: true, credits: '120.00' });
    expect(await w.balance(cookie)).toBe('120.00');
    expect(await b.transitions(id)).toEqual([
      '->creating',
      'creating>created',
      'created>completed',
    ]);
  });

  it('completes a pending capture when PayPal reports it completed', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '30' });
    fake.nextCaptures.push({ kind: 'pending' });
    await b.capture(cookie, id);
    const completed = { ...captureResource(id), status: 'COMPLETED' };
    const first = await b.webhook(fake.webhook('PAYMENT.CAPTURE.COMPLETED', completed));
    expect(first.json().outcome).toBe('completed');
    // PayPal may send the news again under a new event id: still once.
    await b.webhook(fake.webhook('PAYMENT.CAPTURE.COMPLETED', completed));
    expect(await w.balance(cookie)).toBe('30.00');
    expect(await b.transitions(id)).toEqual([
      '->creating',
      'creating>created',
      'created>pending',
      'pending>completed',
    ]);
  });

  it('credits a capture whose answer never reached the browser', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '8' });
    await t.app.deps.paypal?.captureOrder(id, 'browser-lost-it');
    const res = await b.webhook(fake.webhook('PAYMENT.CAPTURE.COMPLETED', captureResource(id)));
    expect(res.json().outcome).toBe('completed');
    expect(await w.balance(cookie)).toBe('8.00');
  });

  it('a reported capture of another amount is held for review, not credited', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '8' });
    await t.app.deps.paypal?.captureOrder(id, 'elsewhere');
    const resource = { ...captureResource(id), amount: { currency_code: 'USD', value: '80.00' } };
    const res = await b.webhook(fake.webhook('PAYMENT.CAPTURE.COMPLETED', resource));
    expect(res.json().outcome).toBe('review');
    expect(await w.balance(cookie)).toBe('0.00');
  });

  it('a refund at PayPal puts a completed order up for review', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '9' });
    await b.capture(cookie, id);
    const captureId = captureResource(id).id;
    const refund = {
      id: 'REFUND-1',
      status: 'COMPLETED',
      links: [{ rel: 'up', href: `${fake.url}/v2/payments/captures/${captureId}` }],
    };
    const res = await b.webhook(fake.webhook('PAYMENT.CAPTURE.REFUNDED', refund));
    expect(res.json().outcome).toBe('review');
    expect((await b.orderRow(id)).status).toBe('review');
    expect(await w.balance(cookie)).toBe('9.00');
  });

  it('ignores events it does not handle and orders it does not know', async () => {
    const other = await b.webhook(fake.webhook('BILLING.SUBSCRIPTION.CREATED', { id: 'X' }));
    expect(other.json()).toEqual({ received: true, outcome: 'ignored' });
    const unknown = await b.webhook(fake.webhook('CHECKOUT.ORDER.APPROVED', { id: 'NOPE' }));
    expect(unknown.json().outcome).toBe('unknown-order');
  });

  it('answers 503 when no webhook id is configured', async () => {
    const env = { ...paypalEnv(fake) };
    delete env.PAYPAL_WEBHOOK_ID;
    const bare = await createTestApp({ env });
    try {
      const res = await buyer(bare).webhook(fake.webhook('CHECKOUT.ORDER.APPROVED', { id: 'X' }));
      expect(res.statusCode).toBe(503);
    } finally {
      await bare.close();
    }
  });
});
