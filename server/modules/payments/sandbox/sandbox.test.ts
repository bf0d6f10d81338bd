import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { type FakePaypal, startFakePaypal } from '../../../test/fake-paypal';
import { buyer, paypalEnv } from '../../../test/payments';
import { world } from '../../../test/world';

/**
 * The local PayPal sandbox (PAYPAL_MODE local-sandbox): no PayPal credentials, not production.
 * Orders go through the ordinary order → approval → capture → ledger path against the
 * in-process Orders v2 stand-in; the buyer's approval is POST …/sandbox/order/:id/approve.
 */
let t: TestApp;
let w: ReturnType<typeof world>;
let b: ReturnType<typeof buyer>;

const approve = (cookie: string, orderId: string) =>
  t.request({ method: 'POST', url: `/api/payments/sandbox/order/${orderId}/approve`, cookie });

beforeAll(async () => {
  t = await createTestApp();
  w = world(t);
  b = buyer(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  expect(await w.invariants()).toEqual([]);
});

describe('local PayPal sandbox', () => {
  it('is what payments run against without PayPal credentials outside production', async () => {
    expect(t.app.deps.env.PAYPAL_MODE).toBe('local-sandbox');
    const { cookie } = await t.signIn();
    const res = await t.request({ method: 'GET', url: '/api/payments/paypal/setup', cookie });
    expect(res.json()).toEqual({
      success: true,
      clientId: 'local-sandbox',
      sdkUrl: null,
      currency: 'USD',
      intent: 'capture',
      sandbox: true,
    });
    // No PayPal script is ever loaded, so PayPal stays out of the content security policy.
    expect(String(res.headers['content-security-policy'])).not.toContain('paypal');
  });

  it('credits a new user once: order → approve → capture, with purchase and bonus lines', async () => {
    const { cookie } = await t.signIn();
    expect(await w.balance(cookie)).toBe('0.00');
    const id = await b.orderId(cookie, { packageId: 'standard' });
    expect(t.app.deps.paypalSandbox?.orders.orders.get(id)).toMatchObject({
      status: 'CREATED',
      amount: { currency_code: 'USD', value: '50.00' },
    });

    const approved = await approve(cookie, id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ id, status: 'approved' });

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

    // Capturing again answers the same and moves no money; approving again is refused.
    const again = await b.capture(cookie, id);
    expect(again.json()).toMatchObject({ success: true, credits: '57.00' });
    expect(await w.balance(cookie)).toBe('57.00');
    const late = await approve(cookie, id);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('CONFLICT');
    expect(t.app.deps.paypalSandbox?.orders.orders.get(id)?.captures).toHaveLength(1);

    const history = await t.request({ method: 'GET', url: '/api/payments/history', cookie });
    expect(
      history.json().entries.map((e: { type: string; amount: string }) => `${e.type} ${e.amount}`),
    ).toEqual(expect.arrayContaining(['purchase 50.00', 'bonus 7.00']));
  });

  it('refuses a capture the buyer has not approved, and credits nothing', async () => {
    const { cookie } = await t.signIn();
    const id = await b.orderId(cookie, { amount: '12.34' });
    const res = await b.capture(cookie, id);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({
      code: 'PAYMENT_FAILED',
      message: 'The payment was not approved in PayPal yet.',
      details: { issue: 'ORDER_NOT_APPROVED' },
    });
    expect(await w.balance(cookie)).toBe('0.00');
    expect(await b.ledgerLines(id)).toEqual([]);
    // The order is still open: approving and capturing then completes it.
    expect((await approve(cookie, id)).statusCode).toBe(200);
    expect((await b.capture(cookie, id)).json()).toMatchObject({ success: true, credits: '12.34' });
    expect(await w.balance(cookie)).toBe('12.34');
  });

  it("answers 404 to approving another user's order or an unknown one", async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    const id = await b.orderId(owner.cookie);
    const res = await approve(other.cookie, id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect((await approve(other.cookie, 'NOSUCHORDER')).statusCode).toBe(404);
    expect(t.app.deps.paypalSandbox?.orders.orders.get(id)?.status).toBe('CREATED');
    expect((await approve(owner.cookie, 'not an id!')).statusCode).toBe(400);
    const anonymous = await t.request({
      method: 'POST',
      url: `/api/payments/sandbox/order/${id}/approve`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('where the local sandbox is not offered', () => {
  it('is never used in production: the not-configured answers stay', async () => {
    const prod = await createTestApp({
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://rentgpu.example' },
    });
    try {
      expect(prod.app.deps.env.PAYPAL_MODE).toBe('off');
      expect(prod.app.deps.paypalSandbox).toBeNull();
      const { cookie } = await prod.signIn();
      const setup = await prod.request({
        method: 'GET',
        url: '/api/payments/paypal/setup',
        cookie,
      });
      expect(setup.json()).toEqual({
        success: false,
        clientId: null,
        sdkUrl: null,
        currency: 'USD',
        intent: 'capture',
        message: 'PayPal payment is not configured. Please contact support for assistance.',
      });
      const order = await buyer(prod).order(cookie);
      expect(order.statusCode).toBe(503);
      expect(order.json().error.code).toBe('PAYMENTS_NOT_CONFIGURED');
      const approval = await prod.request({
        method: 'POST',
        url: '/api/payments/sandbox/order/ABC123/approve',
        cookie,
      });
      expect(approval.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });

  it('is not used when real PayPal is configured', async () => {
    const fake: FakePaypal = await startFakePaypal({ requireApproval: true });
    const real = await createTestApp({ env: paypalEnv(fake) });
    try {
      expect(real.app.deps.env.PAYPAL_MODE).toBe('sandbox-api');
      expect(real.app.deps.paypalSandbox).toBeNull();
      const { cookie } = await real.signIn();
      const setup = await real.request({
        method: 'GET',
        url: '/api/payments/paypal/setup',
        cookie,
      });
      expect(setup.json()).not.toHaveProperty('sandbox');
      expect(setup.json()).toMatchObject({ success: true, clientId: 'x' });
      const id = await buyer(real).orderId(cookie);
      // The order is at the configured PayPal, and the sandbox's approval step does not exist.
      expect(fake.orders.get(id)?.status).toBe('CREATED');
      const approval = await real.request({
        method: 'POST',
        url: `/api/payments/sandbox/order/${id}/approve`,
        cookie,
      });
      expect(approval.statusCode).toBe(404);
      expect(fake.orders.get(id)?.status).toBe('CREATED');
    } finally {
      await real.close();
      await fake.close();
    }
  });
});
