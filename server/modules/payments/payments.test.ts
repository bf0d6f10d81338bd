import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import type { FakePaypal } from '../../test/fake-paypal';
import { type Buyer, buyer, setupPaypalTestApp } from '../../test/payments';
import type { World } from '../../test/suite';

let fake: FakePaypal;
let t: TestApp;
let w: World;
let b: Buyer;
setupPaypalTestApp((suite) => ({ fake, t, w, b } = suite));

describe('GET /api/payments/paypal/setup', () => {
  it('gives the client id and SDK address when configured', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({ method: 'GET', url: '/api/payments/paypal/setup', cookie });
    expect(res.json()).toEqual({
      success: true,
      clientId: 'x',
      sdkUrl: 'https://www.paypal.com/sdk/js',
      currency: 'USD',
      intent: 'capture',
    });
  });

  it('answers success false, and orders are refused, when PayPal is not configured', async () => {
    // Outside production the local sandbox would stand in; this is the production answer.
    const bare = await createTestApp({ env: { PAYPAL_LOCAL_SANDBOX: 'false' } });
    try {
      const { cookie } = await bare.signIn();
      const setup = await bare.request({
        method: 'GET',
        url: '/api/payments/paypal/setup',
        cookie,
      });
      expect(setup.json()).toMatchObject({ success: false, clientId: null });
      const order = await buyer(bare).order(cookie);
      expect(order.statusCode).toBe(503);
      expect(order.json().error.message).toBe('PayPal is not configured. Please contact support.');
      const csp = String(setup.headers['content-security-policy']);
      expect(csp).not.toContain('paypal');
    } finally {
      await bare.close();
    }
  });

  it('allows PayPal in the content security policy only when configured', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://www.paypal.com https://*.paypal.com");
    expect(csp).toContain("frame-src 'self' https://www.paypal.com https://*.paypal.com");
  });
});

describe('POST /api/payments/paypal/order', () => {
  it('prices a package on the server and records the order against the user', async () => {
    const { cookie } = await t.signIn();
    const res = await b.order(cookie, {
      packageId: 'standard',
      amount: 50,
      currency: 'USD',
      payment_type: 'credits',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'created',
      amount: '50.00',
      bonus: '7.00',
      credits: '57.00',
    });
    expect(fake.orders.get(body.id)?.amount).toEqual({ currency_code: 'USD', value: '50.00' });
    expect(await b.transitions(body.id)).toEqual(['->creating', 'creating>created']);
  });

  it('takes a custom amount of 1 to 1000 dollars with no bonus', async () => {
    const { cookie } = await t.signIn();
    const res = await b.order(cookie, { amount: '12.34' });
    expect(res.json()).toMatchObject({ amount: '12.34', bonus: '0.00', credits: '12.34' });
    expect(fake.orders.get(res.json().id)?.amount.value).toBe('12.34');
    for (const amount of [1, '1000'])
      expect((await b.order(cookie, { amount })).statusCode).toBe(201);
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: 1001 }, 'amount'],
    [{ amount: '12.345' }, 'amount'],
    [{ amount: 'ten' }, 'amount'],
    [{}, 'amount'],
    [{ packageId: 'standard', amount: 10 }, 'amount'],
    [{ packageId: 'gold' }, 'packageId'],
    [{ amount: 10, currency: 'EUR' }, 'currency'],
    [{ amount: 10, payment_type: 'gift' }, 'payment_type'],
  ])('refuses %j (400 on %s)', async (payload, field) => {
    const { cookie } = await t.signIn();
    const res = await b.order(cookie, payload);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.details.fields)).toContain(field);
  });

  it('answers 502 and marks the order failed when PayPal cannot create it', async () => {
    const { cookie } = await t.signIn();
    fake.failCreateWith = 500;
    try {
      const res = await b.order(cookie);
      expect(res.statusCode).toBe(502);
      expect(res.json().error.message).toBe('PayPal could not create the order. Please try again.');
    } finally {
      fake.failCreateWith = null;
    }
  });

  it('needs a signed-in user for every payments route', async () => {
    for (const [method, url] of [
      ['GET', '/api/payments/paypal/setup'],
      ['POST', '/api/payments/paypal/order'],
      ['POST', '/api/payments/paypal/order/ABC/capture'],
      ['GET', '/api/payments/history'],
      ['GET', '/api/payments/summary'],
    ] as const) {
      expect((await t.request({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('POST /api/payments/paypal/order/:orderID/capture', () => {
  it('credits amount and bonus once, as separate ledger lines', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie);
    const res = await b.capture(cookie, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      status: 'completed',
      amount: '50.00',
      bonus: '7.00',
      credits: '57.00',
      balance: '57.00',
    });
    expect(await w.balance(cookie)).toBe('57.00');
    expect(await b.ledgerLines(id)).toEqual([
      'paypal_purchase payment_clearing -50000000',
      'paypal_purchase wallet 50000000',
      'purchase_bonus promotions -7000000',
      'purchase_bonus wallet 7000000',
    ]);
    expect(await b.transitions(id)).toEqual([
      '->creating',
      'creating>created',
      'created>completed',
    ]);
    const again = await b.capture(cookie, id);
    expect(again.json()).toMatchObject({ success: true, credits: '57.00' });
    expect(await w.balance(cookie)).toBe('57.00');
    expect(b.captureCalls(fake, id)).toBe(1);
  });

  it('mails a receipt when payment alerts are on', async () => {
    const { cookie } = await t.signIn({ email: 'receipt@example.test' });
    await b.capture(cookie, await b.orderId(cookie, { amount: '5' }));
    const mail = t.mailer.sent.find((m) => m.to === 'receipt@example.test');
    expect(mail?.subject).toBe('RentGPU receipt: $5.00 in credits added');
  });

  it('answers 404 to another user and credits nobody', async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    const id = await b.orderId(owner.cookie);
    expect((await b.capture(other.cookie, id)).statusCode).toBe(404);
    expect((await b.capture(other.cookie, 'NOSUCHORDER')).statusCode).toBe(404);
    expect(await w.balance(other.cookie)).toBe('0.00');
    expect(b.captureCalls(fake, id)).toBe(0);
  });

  it('credits once when PayPal says ORDER_ALREADY_CAPTURED', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'basic' });
    await t.app.deps.paypal?.captureOrder(id, 'captured-elsewhere');
    const res = await b.capture(cookie, id);
    expect(res.json()).toMatchObject({ success: true, credits: '27.00' });
    expect(await w.balance(cookie)).toBe('27.00');
  });

  it('credits once when PayPal errors after capturing', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'starter' });
    fake.nextCaptures.push({ kind: 'error-after-capture' });
    expect((await b.capture(cookie, id)).json()).toMatchObject({ success: true, credits: '10.00' });
    expect(fake.calls).toContain(`GET /v2/checkout/orders/${id}`);
    expect((await b.capture(cookie, id)).statusCode).toBe(200);
    expect(await w.balance(cookie)).toBe('10.00');
  });

  it('credits once when the answer to the capture is dropped', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'pro' });
    fake.nextCaptures.push({ kind: 'drop' });
    expect((await b.capture(cookie, id)).json()).toMatchObject({
      success: true,
      credits: '120.00',
    });
    expect(fake.calls).toContain(`GET /v2/checkout/orders/${id}`);
    expect((await b.capture(cookie, id)).statusCode).toBe(200);
    expect(await w.balance(cookie)).toBe('120.00');
  });

  it('credits nothing and holds the order for review when the amount differs', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { packageId: 'standard' });
    fake.nextCaptures.push({ kind: 'amount', value: '5.00' });
    const res = await b.capture(cookie, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('PAYMENT_UNDER_REVIEW');
    expect((await b.capture(cookie, id)).statusCode).toBe(409);
    expect(await w.balance(cookie)).toBe('0.00');
    const row = await b.orderRow(id);
    expect(row.status).toBe('review');
    expect(row.reviewReason).toBe('PayPal captured 5.00 USD; expected 50.00 USD');
  });

  it('credits nothing and holds the order for review when the currency differs', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '20' });
    fake.nextCaptures.push({ kind: 'currency', code: 'EUR' });
    expect((await b.capture(cookie, id)).statusCode).toBe(409);
    expect(await w.balance(cookie)).toBe('0.00');
    expect((await b.orderRow(id)).status).toBe('review');
  });

  it('a declined card leaves the order open for another try; a declined capture fails it', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '15' });
    fake.nextCaptures.push({ kind: 'instrument-declined' });
    const declined = await b.capture(cookie, id);
    expect(declined.statusCode).toBe(502);
    expect(declined.json().error.message).toBe(
      'Your payment method was declined. Please try another one in PayPal.',
    );
    expect((await b.capture(cookie, id)).json()).toMatchObject({ success: true });
    expect(await w.balance(cookie)).toBe('15.00');

    const second = await b.orderId(cookie, { amount: '15' });
    fake.nextCaptures.push({ kind: 'declined' });
    expect((await b.capture(cookie, second)).statusCode).toBe(502);
    expect((await b.orderRow(second)).status).toBe('failed');
    expect((await b.capture(cookie, second)).statusCode).toBe(502);
    expect(await w.balance(cookie)).toBe('15.00');
  });

  it('a pending capture credits nothing until it completes', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '30' });
    fake.nextCaptures.push({ kind: 'pending' });
    const res = await b.capture(cookie, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, status: 'pending' });
    expect(await w.balance(cookie)).toBe('0.00');
    expect((await b.orderRow(id)).status).toBe('pending');
  });
});
