import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dollarsToMicros } from '../../../shared/rules/money';
import type { TestApp } from '../../test/app';
import { buyer } from '../../test/payments';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';

/**
 * The web app's invoices (per instance, per UTC month) and receipts: lines per instance and
 * day from the ledger, totals equal to the ledger's entries and to the public API's invoice,
 * the PDF of the same figures, and only for their owner.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const v1 = (...args: V1Args) => v1Request(t, ...args);
const get = (cookie: string | undefined, url: string) =>
  t.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) });

async function caller(credits = '100.00') {
  const user = await t.signIn(credits === '0.00' ? undefined : { credits });
  const email = (await get(user.cookie, '/api/auth/user')).json().email as string;
  return { ...user, email, key: (await createApiKey(t, user.cookie, ['read', 'write'])).key };
}

async function becomeReady() {
  t.clock.advance(21_000);
  await t.app.deps.worker.runOnce(t.clock.now());
}

/** What the ledger's wallet entries of one instance add up to (negative: it cost the wallet). */
async function ledgerSum(userId: string, instanceId: number): Promise<bigint> {
  const result = await t.database.db.execute(sql`
    select coalesce(sum(e.amount_micros), 0)::text as total
    from ledger_entries e
    join ledger_transactions t on t.id = e.transaction_id
    join ledger_accounts a on a.id = e.account_id
    where a.kind = 'wallet' and a.user_id = ${userId}
      and t.reference in (${`instance:${instanceId}`}, ${`rental:${instanceId}`})`);
  const rows = (result as unknown as { rows: { total: string }[] }).rows;
  return BigInt(rows[0]?.total ?? '0');
}

type DayLine = { day: string; kind: string; amount: string; instanceId: number };
const exactSum = (lines: DayLine[]) =>
  lines.reduce((sum, l) => sum + dollarsToMicros(l.amount), 0n);
const cents = (dollars: string) => dollarsToMicros(dollars) / 10_000n;

describe('an instance’s invoice', () => {
  it('metered: compute and storage per day, totals equal to the ledger and to v1’s invoice', async () => {
    const me = await caller('50.00');
    const listing = await w.listing({ hourlyRate: '6.00', model: 'H100' });
    const { instance } = (
      await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id })
    ).json();
    await becomeReady();
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      await t.app.deps.worker.runOnce(t.clock.now());
    }
    const res = await get(me.cookie, `/api/invoices/instances/${instance.id}`);
    expect(res.statusCode).toBe(200);
    const { invoice } = res.json();
    const { invoice: public_ } = (
      await v1(me.key, 'GET', `/instances/${instance.id}/invoice`)
    ).json();
    const { usage } = (await v1(me.key, 'GET', `/instances/${instance.id}/usage`)).json();

    expect(invoice).toMatchObject({
      number: `INV-${instance.id}`,
      kind: 'instance',
      title: `Invoice for instance #${instance.id} (H100)`,
      status: 'draft',
      customer: { email: me.email },
      currency: 'USD',
    });
    // The public API's invoice is the same computation, embedded as it answers it.
    expect({ ...invoice.instanceInvoice, issuedAt: '' }).toEqual({ ...public_, issuedAt: '' });
    // The ledger dates its entries by the database's clock: one day, unless it passed midnight.
    const today = invoice.days[0].day;
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(invoice.days.map((l: DayLine) => [l.day, l.kind])).toEqual([
      [today, 'compute'],
      [today, 'storage'],
    ]);
    // $6.00/h is $0.10 a compute minute; 50 GB of storage is $0.000834 a minute, shown exactly.
    const [compute, storage] = invoice.days;
    expect(compute.amount).toBe((usage.computeMinutes * 0.1).toFixed(2));
    expect(compute.postings).toBe(usage.computeMinutes);
    expect(storage.amount).toMatch(/^0\.\d{6}$/);
    expect(compute.description).toBe(`Compute: H100 at $6.00/h, ${usage.computeMinutes} minutes`);
    expect(storage.description).toBe('Storage: 50 GB, by the minute');

    // Totals: the ledger's entries, v1's figures, and what the wallet lost.
    const ledger = await ledgerSum(me.userId, instance.id);
    expect(exactSum(invoice.days)).toBe(-ledger);
    expect(invoice.totals).toEqual({
      compute: usage.computeCharges,
      storage: usage.storageCharges,
      refunds: '0.00',
      total: public_.total,
    });
    expect(invoice.totals.total).toBe((50 - Number(await w.balance(me.cookie))).toFixed(2));
    expect(
      cents(invoice.totals.compute) + cents(invoice.totals.storage) + cents(invoice.totals.refunds),
    ).toBe(cents(invoice.totals.total));

    // The PDF: a real PDF with the same lines and total.
    const pdf = await get(me.cookie, `/api/invoices/instances/${instance.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="rentgpu-INV-${instance.id}.pdf"`,
    );
    const body = pdf.rawPayload.toString('latin1');
    expect(body.startsWith('%PDF-1.4')).toBe(true);
    expect(body.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(body).toContain(`($${invoice.totals.total} USD)`);
    expect(body).toContain(`($${storage.amount})`);
  });

  it('booked, stopped 2 h in: the booking and add-on, the refund of its unused time, per day and per month', async () => {
    const me = await caller('100.00');
    const listing = await w.listing({ hourlyRate: '1.00', model: 'A100' });
    const rented = await w.rentAs(me.cookie, listing, 24);
    expect(rented.statusCode).toBe(201);
    const id = rented.json().id as number;
    await becomeReady();
    t.clock.advance(2 * 3600_000);
    expect((await v1(me.key, 'PATCH', `/instances/${id}/stop`)).statusCode).toBe(200);

    const { invoice } = (await get(me.cookie, `/api/invoices/instances/${id}`)).json();
    const { invoice: public_ } = (await v1(me.key, 'GET', `/instances/${id}/invoice`)).json();
    expect(invoice.status).toBe('final');
    // Each line on the day the ledger recorded it (by the database's clock).
    expect(invoice.days.map((l: DayLine) => [l.kind, l.amount])).toEqual([
      ['compute', '24.00'],
      ['storage', '2.50'],
      ['refund', expect.stringMatching(/^-2[12]\.\d+$/)],
    ]);
    const [first, , last] = invoice.days.map((l: DayLine) => l.day);
    const ledger = await ledgerSum(me.userId, id);
    expect(exactSum(invoice.days)).toBe(-ledger);
    expect(invoice.totals.total).toBe(public_.total);
    expect(invoice.totals.refunds).toBe(
      public_.lines.find((l: { description: string }) => l.description.startsWith('Refund'))
        ?.amount,
    );
    expect(invoice.totals.total).toBe((100 - Number(await w.balance(me.cookie))).toFixed(2));

    // The month's invoices over its days hold the same lines and add up to the same total.
    const months = [...new Set([first, last].map((d) => d.slice(0, 7)))];
    let total = 0n;
    const days: DayLine[] = [];
    for (const month of months) {
      const res = await get(me.cookie, `/api/invoices/months/${month}`);
      expect(res.statusCode).toBe(200);
      const monthly = res.json().invoice;
      expect(monthly).toMatchObject({ number: `INV-${month}`, kind: 'month' });
      total += dollarsToMicros(monthly.totals.total);
      days.push(...monthly.days);
      expect(monthly.instances).toEqual([
        { instanceId: id, gpuModel: 'A100', total: expect.any(String) },
      ]);
    }
    expect(days).toEqual(invoice.days);
    expect(total).toBe(dollarsToMicros(invoice.totals.total));
  });

  it('a month with nothing charged is an empty invoice; a month has only its own days', async () => {
    const me = await caller('10.00');
    const res = await get(me.cookie, '/api/invoices/months/2001-02');
    expect(res.statusCode).toBe(200);
    expect(res.json().invoice).toMatchObject({
      number: 'INV-2001-02',
      title: 'Invoice for February 2001',
      status: 'final',
      days: [],
      instances: [],
      totals: { compute: '0.00', storage: '0.00', refunds: '0.00', total: '0.00' },
      periodStart: '2001-02-01T00:00:00.000Z',
      periodEnd: '2001-03-01T00:00:00.000Z',
    });
    const pdf = await get(me.cookie, '/api/invoices/months/2001-02/pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1')).toContain('(Nothing was charged or refunded.)');
  });
});

describe('receipts', () => {
  it('a receipt for each completed credit purchase, as JSON and PDF', async () => {
    const me = await caller('0.00');
    const b = buyer(t);
    const paypalId = await b.orderId(me.cookie, { packageId: 'standard' });
    // Not yet paid: no receipt.
    expect((await get(me.cookie, '/api/receipts')).json()).toEqual({ receipts: [] });
    await t.request({
      method: 'POST',
      url: `/api/payments/sandbox/order/${paypalId}/approve`,
      cookie: me.cookie,
    });
    expect((await b.capture(me.cookie, paypalId)).statusCode).toBe(200);

    const list = (await get(me.cookie, '/api/receipts')).json().receipts;
    expect(list).toEqual([
      {
        number: expect.stringMatching(/^RCPT-[0-9A-F]{8}$/),
        orderId: expect.any(String),
        paidAt: expect.any(String),
        credits: '57.00',
      },
    ]);
    const res = await get(me.cookie, `/api/receipts/${list[0].orderId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().receipt).toMatchObject({
      number: list[0].number,
      customer: { email: me.email },
      method: 'PayPal',
      amount: '50.00',
      bonus: '7.00',
      credits: '57.00',
      currency: 'USD',
    });
    // What the receipt says was added is what the balance gained.
    expect(await w.balance(me.cookie)).toBe('57.00');
    const pdf = await get(me.cookie, `/api/receipts/${list[0].orderId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const body = pdf.rawPayload.toString('latin1');
    expect(body).toContain('($57.00 USD)');
    expect(body).toContain('($50.00)');
  });
});

describe('access and bad input', () => {
  it("another user's invoice or receipt is 404 with the error body; signed out 401; bad ids and months 400", async () => {
    const owner = await caller('50.00');
    const other = await caller('50.00');
    const listing = await w.listing();
    const { instance } = (
      await v1(owner.key, 'POST', '/instances', { gpuListingId: listing.id })
    ).json();
    const b = buyer(t);
    const paypalId = await b.orderId(owner.cookie, { packageId: 'standard' });
    await t.request({
      method: 'POST',
      url: `/api/payments/sandbox/order/${paypalId}/approve`,
      cookie: owner.cookie,
    });
    await b.capture(owner.cookie, paypalId);
    const [receipt] = (await get(owner.cookie, '/api/receipts')).json().receipts;

    for (const path of [
      `/api/invoices/instances/${instance.id}`,
      `/api/invoices/instances/${instance.id}/pdf`,
      `/api/receipts/${receipt.orderId}`,
      `/api/receipts/${receipt.orderId}/pdf`,
    ]) {
      expect((await get(owner.cookie, path)).statusCode, path).toBe(200);
      const res = await get(other.cookie, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'NOT_FOUND', details: {} });
      expect(res.body).not.toContain(owner.email);
      const anonymous = await get(undefined, path);
      expect(anonymous.statusCode, path).toBe(401);
      expect(anonymous.json().error.code).toBe('UNAUTHENTICATED');
    }
    // The other user's month holds none of the owner's lines.
    const month = (await get(owner.cookie, `/api/invoices/instances/${instance.id}`))
      .json()
      .invoice.days[0].day.slice(0, 7);
    expect((await get(other.cookie, `/api/invoices/months/${month}`)).json().invoice.days).toEqual(
      [],
    );
    expect(
      (await get(owner.cookie, `/api/invoices/months/${month}`)).json().invoice.days,
    ).not.toEqual([]);

    for (const path of [
      '/api/invoices/instances/abc',
      '/api/invoices/instances/0',
      '/api/invoices/instances/99999999999',
      '/api/invoices/months/2026-13',
      '/api/invoices/months/2026-1',
      '/api/invoices/months/november',
      '/api/invoices/months/2026-11-01/pdf',
      '/api/receipts/not-a-uuid',
      '/api/receipts/not-a-uuid/pdf',
    ]) {
      const res = await get(owner.cookie, path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error.code, path).toBe('VALIDATION_FAILED');
    }
    // A receipt id that is nobody's.
    const none = await get(owner.cookie, '/api/receipts/00000000-0000-4000-8000-000000000000');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('NOT_FOUND');
  });
});
