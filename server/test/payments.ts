import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { paymentOrderEvents, paymentOrders } from '../db/schema';
import { createTestApp, type TestApp } from './app';
import { type FakePaypal, startFakePaypal } from './fake-paypal';
import type { World } from './suite';
import { world } from './world';

/** Env that points the app at a fake PayPal. */
export function paypalEnv(fake: FakePaypal): Record<string, string> {
  return {
    PAYPAL_CLIENT_ID: 'x',
    PAYPAL_CLIENT_SECRET: 'y',
    PAYPAL_API_BASE: fake.url,
    PAYPAL_WEBHOOK_ID: 'WH-TEST',
  };
}

/** The browser's side of a purchase, through the app's API. */
export function buyer(t: TestApp) {
  return {
    order(cookie: string, body: Record<string, unknown> = { packageId: 'standard' }) {
      return t.request({
        method: 'POST',
        url: '/api/payments/paypal/order',
        payload: body,
        cookie,
      });
    },

    async orderId(cookie: string, body?: Record<string, unknown>): Promise<string> {
      const res = await this.order(cookie, body);
      if (res.statusCode !== 201) throw new Error(`order failed: ${res.statusCode} ${res.body}`);
      return res.json().id as string;
    },

    capture(cookie: string, orderId: string) {
      return t.request({
        method: 'POST',
        url: `/api/payments/paypal/order/${orderId}/capture`,
        cookie,
      });
    },

    webhook(delivery: { body: Record<string, unknown>; headers: Record<string, string> }) {
      return t.request({
        method: 'POST',
        url: '/api/payments/paypal/webhook',
        payload: delivery.body,
        headers: delivery.headers,
      });
    },

    async orderRow(paypalOrderId: string) {
      const rows = await t.database.db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.paypalOrderId, paypalOrderId));
      const row = rows[0];
      if (!row) throw new Error(`no order ${paypalOrderId}`);
      return row;
    },

    async transitions(paypalOrderId: string): Promise<string[]> {
      const order = await this.orderRow(paypalOrderId);
      const rows = await t.database.db
        .select()
        .from(paymentOrderEvents)
        .where(eq(paymentOrderEvents.orderId, order.id))
        .orderBy(paymentOrderEvents.id);
      return rows.map((r) => `${r.fromStatus ?? '-'}>${r.toStatus}`);
    },

    /** Ledger lines of the purchase of one order, as "kind account-kind amount". */
    async ledgerLines(paypalOrderId: string): Promise<string[]> {
      const order = await this.orderRow(paypalOrderId);
      const result = await t.database.db.execute(sql`
        select t.kind, a.kind as account, e.amount_micros::text as amount
        from ledger_transactions t
        join ledger_entries e on e.transaction_id = t.id
        join ledger_accounts a on a.id = e.account_id
        where t.reference = ${`payment-order:${order.id}`}
        order by t.id, e.amount_micros`);
      const rows = (result as unknown as { rows: Record<string, string>[] }).rows;
      return rows.map((r) => `${r.kind} ${r.account} ${r.amount}`);
    },

    /** Capture calls the fake received for an order. */
    captureCalls(fake: FakePaypal, paypalOrderId: string): number {
      return fake.calls.filter((c) => c === `POST /v2/checkout/orders/${paypalOrderId}/capture`)
        .length;
    },
  };
}

export type Buyer = ReturnType<typeof buyer>;

/** What a payments test file works with: the fake PayPal, the app on it, its world and buyer. */
export interface PaypalSuite {
  fake: FakePaypal;
  t: TestApp;
  w: World;
  b: Buyer;
}

/**
 * A fake PayPal and a test app on it for a file's tests: made before them (`ready` receives
 * them); after each test the fake's scripted captures, capture delay and failing reads are
 * reset and the ledger's invariants checked; both closed after all of them.
 */
export function setupPaypalTestApp(ready: (suite: PaypalSuite) => void): void {
  let suite: PaypalSuite | undefined;
  beforeAll(async () => {
    const fake = await startFakePaypal();
    const t = await createTestApp({ env: paypalEnv(fake) });
    suite = { fake, t, w: world(t), b: buyer(t) };
    ready(suite);
  });
  afterAll(async () => {
    await suite?.t.close();
    await suite?.fake.close();
  });
  afterEach(async () => {
    if (!suite) return;
    suite.fake.nextCaptures = [];
    suite.fake.captureDelayMs = 0;
    suite.fake.failReads = 0;
    expect(await suite.w.invariants()).toEqual([]);
  });
}
