import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOY_TEMPLATES } from '../../../shared/deploy-templates';
import { instances, paymentOrders } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import {
  type FakePaypal,
  PAYPAL_SANDBOX_APPROVAL_PAGE,
  startFakePaypal,
} from '../../test/fake-paypal';
import { buyer, paypalEnv } from '../../test/payments';
import { createApiKey, expectReplayOf, type V1Args, v1Request } from '../../test/public-api';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { WINDOWS_UNAVAILABLE_REASON } from '../instances/surfaces/vm-service';
import { checkInvariants } from '../ledger/invariants';

/**
 * The public API's templates, template creates, per-instance usage and invoices, credits and
 * provider calls (the rest: public-api.test.ts). Every route: its key, its permission,
 * another user's key (404 or 403, never data), idempotent replays and bad input.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

/** A user with credits and an API key of these permissions. */
async function caller(permissions = ['read', 'write'], credits = '100.00', app = t) {
  const user = await app.signIn(credits === '0.00' ? undefined : { credits });
  return { ...user, key: (await createApiKey(app, user.cookie, permissions)).key };
}

const v1 = (...args: V1Args) => v1Request(t, ...args);

/** Lets the demo host report the instance ready. */
async function becomeReady() {
  t.clock.advance(21_000);
  await t.app.deps.worker.runOnce(t.clock.now());
}

describe('templates', () => {
  it('lists the deploy templates and the VM images; windows11 off where no host has it', async () => {
    const me = await caller(['read']);
    const res = await v1(me.key, 'GET', '/templates');
    expect(res.statusCode).toBe(200);
    const { templates } = res.json();
    expect(templates.map((x: { id: string }) => x.id)).toEqual([
      ...DEPLOY_TEMPLATES.map((d) => d.id),
      'ubuntu22',
      'windows11',
    ]);
    const pytorch = DEPLOY_TEMPLATES.find((d) => d.id === 'pytorch');
    expect(templates[0]).toEqual({
      id: 'pytorch',
      kind: 'software',
      name: pytorch?.name,
      description: pytorch?.description,
      cpuCores: pytorch?.cpuCores,
      ramGb: pytorch?.ramGb,
      recommendedGpu: pytorch?.recommendedGpu,
      software: pytorch?.software,
      deploySeconds: pytorch?.deploySeconds,
      available: true,
      reason: null,
    });
    const windows = templates.find((x: { id: string }) => x.id === 'windows11');
    expect(windows).toMatchObject({
      kind: 'image',
      name: 'Windows 11',
      available: false,
      reason: WINDOWS_UNAVAILABLE_REASON,
    });
    expect((await v1(null, 'GET', '/templates')).statusCode).toBe(401);
    const writer = await caller(['write']);
    const refused = await v1(writer.key, 'GET', '/templates');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });

  it('creates a metered instance with a template: its shape and setup, idempotently', async () => {
    const me = await caller();
    const listing = await w.listing({ hourlyRate: '1.00' });
    const body = { gpuListingId: listing.id, template: 'pytorch' };
    const headers = { 'idempotency-key': 'tpl-1' };
    const first = await v1(me.key, 'POST', '/instances', body, headers);
    expect(first.statusCode).toBe(201);
    expect(first.json().instance).toMatchObject({ billingPlan: 'metered', status: 'provisioning' });
    const replay = await v1(me.key, 'POST', '/instances', body, headers);
    expectReplayOf(replay, first);
    const rows = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.userId, me.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'pytorch', cpus: 8, memoryGb: 32, source: 'api' });
    expect(rows[0]?.userData).toContain('torch');
    expect(rows[0]?.platformSshPublicKey).toMatch(/^ssh-/);

    const ubuntu = await v1(me.key, 'POST', '/instances', {
      gpuListingId: listing.id,
      template: 'ubuntu22',
    });
    expect(ubuntu.statusCode).toBe(201);
    const [image] = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.id, ubuntu.json().instance.id));
    expect(image).toMatchObject({ template: 'ubuntu22', cpus: 4, memoryGb: 16, userData: null });
  });

  it('refuses windows11 where the host has no image, a template with hours, an unknown one', async () => {
    const me = await caller();
    const listing = await w.listing();
    const windows = await v1(me.key, 'POST', '/instances', {
      gpuListingId: listing.id,
      template: 'windows11',
    });
    expect(windows.statusCode).toBe(409);
    expect(windows.json().error).toMatchObject({
      message: WINDOWS_UNAVAILABLE_REASON,
      details: { fields: { template: [WINDOWS_UNAVAILABLE_REASON] } },
    });
    for (const body of [
      { gpuListingId: listing.id, template: 'pytorch', durationHours: 2 },
      { gpuListingId: listing.id, template: 'doom' },
    ]) {
      const res = await v1(me.key, 'POST', '/instances', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(res.json().error.details.fields.template).toHaveLength(1);
    }
    const mine = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.userId, me.userId));
    expect(mine).toEqual([]);
  });
});

describe('usage and invoice of one instance', () => {
  it('metered: minutes, compute and storage from the ledger; the invoice in JSON and CSV', async () => {
    const me = await caller(['read', 'write'], '50.00');
    const listing = await w.listing({ hourlyRate: '6.00', model: 'H100' });
    const { instance } = (
      await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id })
    ).json();
    await becomeReady();
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      await t.app.deps.worker.runOnce(t.clock.now());
    }
    const res = await v1(me.key, 'GET', `/instances/${instance.id}/usage`);
    expect(res.statusCode).toBe(200);
    const { usage } = res.json();
    expect(usage).toMatchObject({
      instanceId: instance.id,
      gpuModel: 'H100',
      billingPlan: 'metered',
      status: 'running',
      hourlyRate: '6.00',
      storageGb: 50,
      refunds: '0.00',
      currency: 'USD',
    });
    expect(usage.computeMinutes).toBeGreaterThan(0);
    expect(usage.storageMinutes).toBeGreaterThanOrEqual(usage.computeMinutes);
    expect(usage.billedSeconds).toBe(usage.computeMinutes * 60);
    // $6.00/h is $0.10 a minute of compute.
    expect(usage.computeCharges).toBe((usage.computeMinutes * 0.1).toFixed(2));
    // What the wallet lost is what the instance cost.
    expect(usage.totalCost).toBe((50 - Number(await w.balance(me.cookie))).toFixed(2));
    const account = (await v1(me.key, 'GET', '/account/usage')).json();
    expect(account.instances[0]).toMatchObject({ instanceId: instance.id, cost: usage.totalCost });

    const json = await v1(me.key, 'GET', `/instances/${instance.id}/invoice`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    const { invoice } = json.json();
    expect(invoice).toMatchObject({
      number: `INV-${instance.id}`,
      instanceId: instance.id,
      status: 'draft',
      periodEnd: null,
      total: usage.totalCost,
      currency: 'USD',
    });
    expect(invoice.lines).toEqual([
      {
        description: 'Compute: H100 at $6.00/h, by the minute',
        quantity: usage.computeMinutes,
        unit: 'minute',
        unitPrice: '0.10',
        amount: usage.computeCharges,
      },
      {
        description: 'Storage: 50 GB, by the minute',
        quantity: usage.storageMinutes,
        unit: 'minute',
        unitPrice: '0.000834',
        amount: usage.storageCharges,
      },
      {
        // Compute is charged from ready (issue 39): the minutes before are a line of their own.
        description: 'provisioning — not charged',
        quantity: expect.any(Number),
        unit: 'minute',
        unitPrice: '0.00',
        amount: '0.00',
      },
    ]);
    // Its lines add up to its total, to the cent.
    const cents = (invoice.lines as { amount: string }[]).reduce(
      (sum, l) => sum + Math.round(Number(l.amount) * 100),
      0,
    );
    expect(cents).toBe(Math.round(Number(invoice.total) * 100));

    const asks: { path: string; headers: Record<string, string> }[] = [
      { path: `/instances/${instance.id}/invoice?format=csv`, headers: {} },
      { path: `/instances/${instance.id}/invoice`, headers: { accept: 'text/csv' } },
    ];
    for (const ask of asks) {
      const csv = await v1(me.key, 'GET', ask.path, undefined, ask.headers);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="INV-${instance.id}.csv"`,
      );
      const lines = csv.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'invoice,instance_id,description,quantity,unit,unit_price,amount,currency',
      );
      expect(lines[1]).toBe(
        `INV-${instance.id},${instance.id},"Compute: H100 at $6.00/h, by the minute",${usage.computeMinutes},minute,0.10,${usage.computeCharges},USD`,
      );
      expect(lines.at(-1)).toBe(
        `INV-${instance.id},${instance.id},Total,,,,${usage.totalCost},USD`,
      );
    }
    for (const [accept, type] of [
      ['application/json;q=0.5, text/csv', 'text/csv'],
      ['text/csv;q=0.9, application/json', 'application/json'],
      ['*/*', 'application/json'],
      ['text/*', 'text/csv'],
    ]) {
      const res = await v1(me.key, 'GET', `/instances/${instance.id}/invoice`, undefined, {
        accept: accept ?? '',
      });
      expect(res.headers['content-type'], accept).toContain(type);
    }
    const bad = await v1(me.key, 'GET', `/instances/${instance.id}/invoice?format=pdf`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('create → 5 s → stop → start → 5 s → terminate: two compute minutes from ready, one storage minute, the same figure in the ledger, usage, invoice, CSV and the VM dashboard', async () => {
    const me = await caller(['read', 'write'], '50.00');
    const listing = await w.listing({ hourlyRate: '6.00', model: 'H100' });
    const created = await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id });
    const id = created.json().instance.id as number;
    const row = async () =>
      (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0];
    // The host's word, as a real host sends it, two seconds after each action.
    const host = async (state: 'running' | 'stopped' | 'terminated') => {
      t.clock.advance(2_000);
      const generation = (await row())?.generation ?? 0;
      const told = await t.app.deps.hosts.report({ instanceId: id, generation, state });
      expect(told.accepted).toBe(true);
    };
    await host('running');
    t.clock.advance(3_000);
    expect((await v1(me.key, 'PATCH', `/instances/${id}/stop`)).statusCode).toBe(200);
    await host('stopped');
    expect((await v1(me.key, 'POST', `/instances/${id}/start`)).statusCode).toBe(200);
    await host('running');
    t.clock.advance(3_000);
    expect((await v1(me.key, 'DELETE', `/instances/${id}`)).statusCode).toBe(200);
    await host('terminated');
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      await t.app.deps.worker.runOnce(t.clock.now());
    }
    // Two compute minutes of $0.10 (one from each readiness) and the storage minute it was
    // created with (834 µ$, 50 GB): 200 834 µ$ in all. Compute is charged from ready.
    expect(await row()).toMatchObject({
      status: 'terminated',
      computeMinutes: 2,
      storageMinutes: 1,
      chargedMicros: 200_834n,
    });
    expect(await checkInvariants(t.database.db, { billedUpTo: t.clock.now() })).toEqual([]);
    expect(await w.balance(me.cookie)).toBe('49.80'); // $50 − $0.200834
    const { usage } = (await v1(me.key, 'GET', `/instances/${id}/usage`)).json();
    expect(usage).toMatchObject({
      computeMinutes: 2,
      storageMinutes: 1,
      billedSeconds: 120,
      computeCharges: '0.20',
      storageCharges: '0.00',
      totalCost: '0.20',
    });
    const { invoice } = (await v1(me.key, 'GET', `/instances/${id}/invoice`)).json();
    expect(invoice.total).toBe('0.20');
    // Compute, storage, and the 2 s it provisioned (a minute, not charged).
    expect(invoice.lines.map((l: { quantity: number }) => l.quantity)).toEqual([2, 1, 1]);
    const csv = (await v1(me.key, 'GET', `/instances/${id}/invoice?format=csv`)).body;
    expect(csv).toContain(`INV-${id},${id},Total,,,,0.20,USD`);
    const account = (await v1(me.key, 'GET', '/account/usage')).json();
    expect(account.instances[0]).toMatchObject({ instanceId: id, cost: '0.20' });
    const web = (path: string) => t.request({ method: 'GET', url: path, cookie: me.cookie });
    const vm = (await web('/api/kvm/instances')).json()[0];
    expect(vm).toMatchObject({ vm_id: id, status: 'terminated', total_cost: '0.20' });
    expect((await web('/api/kvm/billing/summary')).json()).toEqual({
      total_amount: '0.20',
      unpaid_amount: '0.00',
      total_hours: 0.03,
    });
  });

  it('booked: the booking and storage paid, the refund when it ends; the invoice final', async () => {
    const me = await caller(['read', 'write'], '20.00');
    const listing = await w.listing({ hourlyRate: '1.00' });
    const { instance } = (
      await v1(me.key, 'POST', '/instances', { gpuListingId: listing.id, durationHours: 3 })
    ).json();
    const held = (await v1(me.key, 'GET', `/instances/${instance.id}/usage`)).json().usage;
    expect(held).toMatchObject({
      billingPlan: 'booked',
      billedSeconds: 3 * 3600,
      computeCharges: '3.00',
      storageCharges: '2.50',
      refunds: '0.00',
      totalCost: '5.50',
    });
    await v1(me.key, 'PATCH', `/instances/${instance.id}/stop`);
    const ended = (await v1(me.key, 'GET', `/instances/${instance.id}/usage`)).json().usage;
    // Never ready: everything back.
    expect(ended).toMatchObject({ billedSeconds: 0, refunds: '5.50', totalCost: '0.00' });
    const { invoice } = (await v1(me.key, 'GET', `/instances/${instance.id}/invoice`)).json();
    expect(invoice.status).toBe('final');
    expect(invoice.periodEnd).toEqual(expect.any(String));
    expect(invoice.lines.map((l: { amount: string }) => l.amount)).toEqual([
      '3.00',
      '2.50',
      '-5.50',
    ]);
    expect(invoice.lines[0]).toMatchObject({ quantity: 3, unit: 'hour', unitPrice: '1.00' });
    expect(invoice.total).toBe('0.00');
    expect(await w.balance(me.cookie)).toBe('20.00');
  });

  it("another user's instance is 404, never data; a key without read is 403", async () => {
    const owner = await caller();
    const other = await caller(['read', 'write', 'admin']);
    const listing = await w.listing();
    const { instance } = (
      await v1(owner.key, 'POST', '/instances', { gpuListingId: listing.id })
    ).json();
    for (const path of [
      `/instances/${instance.id}/usage`,
      `/instances/${instance.id}/invoice`,
      `/instances/${instance.id}/invoice?format=csv`,
    ]) {
      const res = await v1(other.key, 'GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(res.body).not.toContain(owner.userId);
      expect((await v1(null, 'GET', path)).statusCode).toBe(401);
    }
    const writer = await caller(['write']);
    expect((await v1(writer.key, 'GET', `/instances/${instance.id}/usage`)).statusCode).toBe(403);
    expect((await v1(owner.key, 'GET', '/instances/0/usage')).statusCode).toBe(400);
  });
});

describe('credits', () => {
  it('the built-in sandbox has no PayPal page: the order is made, approvalUrl is null', async () => {
    const me = await caller(['read', 'write'], '0.00');
    const res = await v1(me.key, 'POST', '/account/credits', { amount: '10' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      order: { amount: '10.00', bonus: '0.00', credits: '10.00', currency: 'USD' },
      approvalUrl: null,
    });
    expect(res.json().message).toContain('built-in PayPal sandbox');
    // GET /account says so before anything is made (the CLI reads it first).
    expect((await v1(me.key, 'GET', '/account')).json().paymentsSandbox).toBe(true);
  });

  describe('against PayPal (the tests’ fake PayPal sandbox)', () => {
    let fake: FakePaypal;
    let p: TestApp;
    beforeAll(async () => {
      fake = await startFakePaypal();
      p = await createTestApp({ env: paypalEnv(fake) });
    });
    afterAll(async () => {
      await p.close();
      await fake.close();
    });
    /** A call to the app that talks to the fake PayPal. */
    const v1p = (...args: V1Args) => v1Request(p, ...args);

    it('answers the order with PayPal’s approval link; once approved, the credits arrive', async () => {
      const me = await caller(['read', 'write'], '0.00', p);
      expect((await v1p(me.key, 'GET', '/account')).json().paymentsSandbox).toBe(false);
      const headers = { 'idempotency-key': 'buy-1' };
      const res = await v1p(me.key, 'POST', '/account/credits', { amount: '25' }, headers);
      expect(res.statusCode).toBe(201);
      const { order, approvalUrl, message } = res.json();
      expect(order).toMatchObject({ status: 'created', amount: '25.00', credits: '25.00' });
      expect(approvalUrl).toBe(`${PAYPAL_SANDBOX_APPROVAL_PAGE}?token=${order.id}`);
      expect(fake.orders.get(order.id)?.amount).toEqual({ currency_code: 'USD', value: '25.00' });
      expect(message).toContain('approvalUrl');

      const replay = await v1p(me.key, 'POST', '/account/credits', { amount: '25' }, headers);
      expectReplayOf(replay, res);
      const orders = await p.database.db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.userId, me.userId));
      expect(orders).toHaveLength(1);
      const reused = await v1p(me.key, 'POST', '/account/credits', { amount: '30' }, headers);
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');

      // The buyer approves at PayPal; PayPal's webhook has the order captured.
      fake.approve(order.id);
      const delivery = fake.webhook('CHECKOUT.ORDER.APPROVED', {
        id: order.id,
        status: 'APPROVED',
      });
      expect((await buyer(p).webhook(delivery)).json().outcome).toBe('completed');
      expect((await v1p(me.key, 'GET', '/account')).json().balance).toBe('25.00');
      expect(await checkInvariants(p.database.db)).toEqual([]);
    });

    it('a package carries its bonus; read-only keys 403; bad amounts 400 in the error body', async () => {
      const me = await caller(['read', 'write'], '0.00', p);
      const pkg = await v1p(me.key, 'POST', '/account/credits', { packageId: 'pro' });
      expect(pkg.statusCode).toBe(201);
      expect(pkg.json().order).toMatchObject({
        amount: '100.00',
        bonus: '20.00',
        credits: '120.00',
      });

      const reader = await caller(['read'], '0.00', p);
      const refused = await v1p(reader.key, 'POST', '/account/credits', { amount: '10' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'FORBIDDEN',
        details: { required: 'write' },
      });
      expect((await v1p(null, 'POST', '/account/credits', { amount: '10' })).statusCode).toBe(401);
      for (const body of [{}, { amount: '-5' }, { amount: 'ten' }, { amount: '1.001' }]) {
        const res = await v1p(me.key, 'POST', '/account/credits', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      }
    });
  });
});

describe('provider listings and hosts', () => {
  it('POST and PATCH listings: the web’s listing service, idempotent; others’ refused', async () => {
    const provider = await w.provider();
    const key = (await createApiKey(t, provider.cookie, ['read', 'write'])).key;
    const body = { model: 'H100', memory: '80GB', location: 'Oslo, NO', hourlyRate: '3.20' };
    const headers = { 'idempotency-key': 'list-1' };
    const created = await v1(key, 'POST', '/provider/listings', body, headers);
    expect(created.statusCode).toBe(201);
    const { listing } = created.json();
    expect(listing).toMatchObject({
      providerId: provider.providerId,
      model: 'H100',
      hourlyRate: '3.20',
      dailyRate: '76.80',
      status: 'available',
      totalCount: 1,
      hostStatus: 'none',
    });
    const replay = await v1(key, 'POST', '/provider/listings', body, headers);
    expectReplayOf(replay, created);
    const page = (await v1(key, 'GET', '/provider/listings')).json();
    expect(page.listings.map((l: { id: number }) => l.id)).toEqual([listing.id]);

    const patched = await v1(key, 'PATCH', `/provider/listings/${listing.id}`, {
      hourlyRate: '2.90',
      status: 'maintenance',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().listing).toMatchObject({ hourlyRate: '2.90', status: 'maintenance' });

    for (const bad of [
      { ...body, model: 'Potato 9000' },
      { ...body, hourlyRate: '-1' },
      { memory: '80GB' },
    ]) {
      const res = await v1(key, 'POST', '/provider/listings', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await v1(key, 'PATCH', `/provider/listings/${listing.id}`, {})).statusCode).toBe(400);

    const renter = await caller(['read', 'write']);
    const notProvider = await v1(renter.key, 'POST', '/provider/listings', body);
    expect(notProvider.statusCode).toBe(403);
    expect(notProvider.json().error.code).toBe('NOT_A_PROVIDER');
    const other = await w.provider();
    const otherKey = (await createApiKey(t, other.cookie, ['read', 'write'])).key;
    const theirs = await v1(otherKey, 'PATCH', `/provider/listings/${listing.id}`, {
      hourlyRate: '0.10',
    });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.body).not.toContain('Oslo');
    expect(
      (await v1(otherKey, 'PATCH', '/provider/listings/999999', { hourlyRate: '1' })).statusCode,
    ).toBe(404);
    const reader = (await createApiKey(t, provider.cookie, ['read'])).key;
    expect((await v1(reader, 'POST', '/provider/listings', body)).statusCode).toBe(403);
    const still = (await v1(key, 'GET', '/provider/listings')).json().listings[0];
    expect(still.hourlyRate).toBe('2.90');
  });

  it('403 NOT_A_PROVIDER without a provider profile; a provider sees only their own', async () => {
    const renter = await caller(['read', 'write', 'admin']);
    for (const path of ['/provider/listings', '/provider/hosts']) {
      const res = await v1(renter.key, 'GET', path);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().error.code).toBe('NOT_A_PROVIDER');
      expect((await v1(null, 'GET', path)).statusCode).toBe(401);
    }

    const provider = await w.provider();
    const key = (await createApiKey(t, provider.cookie, ['read'])).key;
    const mine = [
      await w.listing({ providerId: provider.providerId, model: 'A100 80GB' }),
      await w.listing({ providerId: provider.providerId, status: 'maintenance' }),
    ];
    const someoneElse = await w.provider();
    await w.listing({ providerId: someoneElse.providerId });

    const first = await v1(key, 'GET', '/provider/listings?limit=1');
    expect(first.statusCode).toBe(200);
    expect(first.json().listings).toHaveLength(1);
    expect(typeof first.json().nextCursor).toBe('string');
    const second = await v1(
      key,
      'GET',
      `/provider/listings?limit=1&cursor=${first.json().nextCursor}`,
    );
    const seen = [...first.json().listings, ...second.json().listings];
    expect(seen.map((l: { id: number }) => l.id).sort()).toEqual(mine.map((l) => l.id).sort());
    expect(seen.map((l: { status: string }) => l.status).sort()).toEqual([
      'available',
      'maintenance',
    ]);
    expect(seen.every((l: { providerId: number }) => l.providerId === provider.providerId)).toBe(
      true,
    );
    expect(second.json().nextCursor).toBeNull();
    expect((await v1(key, 'GET', '/provider/listings?cursor=nonsense')).statusCode).toBe(400);
    expect((await v1(key, 'GET', '/provider/listings?limit=500')).statusCode).toBe(400);

    expect((await v1(key, 'GET', '/provider/hosts')).json()).toEqual({ hosts: [] });
    const created = await t.request({
      method: 'POST',
      url: '/api/providers/hosts',
      cookie: provider.cookie,
      payload: { name: 'rack-1' },
    });
    expect(created.statusCode).toBe(201);
    const hosts = (await v1(key, 'GET', '/provider/hosts')).json().hosts;
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({ name: 'rack-1', status: 'awaiting_enrolment' });
    const theirKey = (await createApiKey(t, someoneElse.cookie, ['read'])).key;
    expect((await v1(theirKey, 'GET', '/provider/hosts')).json()).toEqual({ hosts: [] });

    const writer = (await createApiKey(t, provider.cookie, ['write'])).key;
    expect((await v1(writer, 'GET', '/provider/listings')).statusCode).toBe(403);
  });
});
