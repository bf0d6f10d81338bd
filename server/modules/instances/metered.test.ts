import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { gpuListings, instances, ledgerTransactions } from '../../db/schema';
import type { AppError } from '../../lib/errors';
import type { TestApp } from '../../test/app';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { checkInvariants } from '../ledger/invariants';
import { ledgerService } from '../ledger/service';
import { presentMetered } from './reads/presenter';

/**
 * The metered plan through the service API (the HTTP surfaces /api/kvm and /api/v1 come
 * later): create, start, stop, terminate; per-minute charges by the worker; stopping when
 * the wallet runs dry; warnings; the hosts seam.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const svc = () => t.app.deps.instances;
const tick = () => t.app.deps.worker.runOnce(t.clock.now());
const now = () => t.clock.now();
const micros = (userId: string) => ledgerService.walletBalance(t.database.db, userId);
/** Alerts are e-mailed after commit, without holding up the worker: wait for them. */
const mailed = (to: string, subject: string) =>
  vi.waitFor(
    () => {
      const found = t.mailer.sent.filter((m) => m.to === to && m.subject.includes(subject));
      if (found.length === 0) throw new Error(`no "${subject}" mail to ${to}`);
      return found.length;
    },
    { timeout: 10_000 }, // sent by the event log's mail reader, after the change commits
  );
async function emailOf(cookie: string): Promise<string> {
  return (await t.request({ method: 'GET', url: '/api/auth/user', cookie })).json().email;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

async function available(listingId: number) {
  const [l] = await t.database.db.select().from(gpuListings).where(eq(gpuListings.id, listingId));
  return l?.availableCount;
}

/** $1.20/h (2¢ a minute) with 60 GB of storage (0.1¢ a minute). */
async function vm(credits = '10.00', totalCount = 2) {
  const user = await t.signIn({ credits });
  const listing = await w.listing({ hourlyRate: '1.20', totalCount });
  const created = await svc().createMetered(
    user.userId,
    { gpuListingId: listing.id, source: 'vm', template: 'ubuntu-22.04', storageGb: 60 },
    now(),
  );
  return { user, listing, id: created.instance.id };
}

/** Runs the worker until the demo host has made the instance ready. */
async function untilRunning(id: number) {
  t.clock.advance(20_000);
  await tick();
  expect((await row(id)).status).toBe('running');
}

describe('creating a metered instance', () => {
  it('needs one hour of balance at its rate, answering 402 with required and available', async () => {
    const user = await t.signIn({ credits: '1.00' });
    const listing = await w.listing({ hourlyRate: '1.20' });
    const error = await refusal(
      svc().createMetered(
        user.userId,
        { gpuListingId: listing.id, source: 'api', storageGb: 60 },
        now(),
      ),
    );
    expect(error.status).toBe(402);
    expect(error.code).toBe('INSUFFICIENT_CREDITS');
    expect(error.details).toMatchObject({ required: '1.26', available: '1.00' });
    expect(await available(listing.id)).toBe(listing.totalCount);
  });

  it('takes a unit, is placed on the demo host and becomes running through a host report', async () => {
    const { listing, id } = await vm();
    expect(await available(listing.id)).toBe(1);
    const created = await row(id);
    expect(created).toMatchObject({
      status: 'provisioning',
      billingPlan: 'metered',
      source: 'vm',
      hostId: 'demo',
      generation: 1,
    });
    await untilRunning(id);
    const running = await row(id);
    expect(running.sshHost).toBe(`gpu-${listing.id}.demo.rentgpu.dev`);
    expect(running.generation).toBe(2);
    const view = presentMetered({
      instance: running,
      listing: { model: 'RTX 4090', location: 'x', isDemoHost: true },
      provider: { companyName: 'x' },
    });
    expect(view).toMatchObject({ status: 'running', actions: ['stop', 'terminate'] });
  });
});

describe('per-minute charges', () => {
  it('charges storage from create and compute from ready, then each next minute at its start, one ledger transaction per charge', async () => {
    const { user, id } = await vm('10.00');
    // Storage from create: its first minute (0.1¢) at once; compute waits for readiness.
    expect(await micros(user.userId)).toBe(9_999_000n);
    const created = now();
    expect(await row(id)).toMatchObject({
      computeMinutes: 0,
      storageMinutes: 1,
      chargedMicros: 1_000n,
      paidThrough: new Date(created.getTime() + 60_000),
    });
    await tick(); // nothing is due: the worker never charges the first minute again
    expect(await micros(user.userId)).toBe(9_999_000n);
    await untilRunning(id); // 20 s later: ready, its first compute minute (2¢) paid at once
    expect(await micros(user.userId)).toBe(9_979_000n);
    const ready = await row(id);
    expect(ready).toMatchObject({ computeMinutes: 1, storageMinutes: 1, chargedMicros: 21_000n });
    // Paid time runs a minute from readiness: the storage seconds between are not charged twice.
    expect(ready.paidThrough).toEqual(new Date(now().getTime() + 60_000));
    t.clock.advance(60_000);
    await tick(); // the next minute, at its start: compute and storage
    expect(await micros(user.userId)).toBe(9_958_000n);
    const r = await row(id);
    expect(r).toMatchObject({ computeMinutes: 2, storageMinutes: 2, chargedMicros: 42_000n });
    const keys = await t.database.db
      .select({ key: ledgerTransactions.idempotencyKey })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, `instance:${id}`));
    expect(keys.map((k) => k.key).sort()).toEqual(
      [
        `metered:${id}:start:1`,
        `metered:${id}:ready:${ready.generation}`,
        `metered:${id}:${Math.floor(now().getTime() / 60_000)}`,
      ].sort(),
    );
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it('create → 5 s → stop → start → 5 s → terminate costs one storage minute and the two compute minutes it was ready for', async () => {
    const { user, id } = await vm('10.00');
    // The host's word, as a real host would send it, a second or two after each action.
    const host = async (state: 'running' | 'stopped' | 'terminated') => {
      t.clock.advance(2_000);
      const { generation } = await row(id);
      expect((await t.app.deps.hosts.report({ instanceId: id, generation, state })).accepted).toBe(
        true,
      );
    };
    await host('running');
    t.clock.advance(3_000);
    await tick();
    await svc().stop(user.userId, id, now()); // 5 s after create
    await host('stopped');
    const started = await svc().start(user.userId, id, now());
    expect(started.instance.status).toBe('starting');
    // A start charges nothing: compute begins again when it is ready.
    expect(started.instance).toMatchObject({ computeMinutes: 1, storageMinutes: 1 });
    await host('running');
    t.clock.advance(3_000);
    await tick();
    await svc().terminate(user.userId, id, now()); // 5 s after start
    await host('terminated');
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(60_000);
      await tick();
    }
    const done = await row(id);
    expect(done).toMatchObject({
      status: 'terminated',
      computeMinutes: 2,
      storageMinutes: 1,
      chargedMicros: 41_000n,
    });
    expect(await micros(user.userId)).toBe(10_000_000n - 41_000n);
    const paid = await t.database.db
      .select({ key: ledgerTransactions.idempotencyKey, kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, `instance:${id}`));
    expect(paid).toHaveLength(3); // the create's storage minute and two readinesses
    expect(paid.every((p) => p.kind === 'metered_minute')).toBe(true);
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it('never charges a minute twice, however many workers run, and never skips one after a pause', async () => {
    const { user, id } = await vm('10.00');
    await untilRunning(id);
    await Promise.all([tick(), tick(), tick()]);
    const first = await row(id);
    // The worker was away for five minutes: the next pass charges each of them once.
    t.clock.advance(5 * 60_000);
    await Promise.all([tick(), tick()]);
    const after = await row(id);
    expect(after.storageMinutes - first.storageMinutes).toBe(5);
    expect(after.computeMinutes - first.computeMinutes).toBe(5);
    expect(after.paidThrough?.getTime()).toBeGreaterThan(now().getTime());
    expect(await micros(user.userId)).toBe(10_000_000n - after.chargedMicros);
  });

  it('a start racing the minute job charges nothing itself; each storage minute due while stopped is charged once', async () => {
    const { user, id } = await vm('10.00');
    await untilRunning(id);
    await svc().stop(user.userId, id, now());
    await tick(); // the demo host confirms the stop
    t.clock.advance(90_000); // a storage minute has come due, not yet charged
    const before = await row(id);
    const [started] = await Promise.all([svc().start(user.userId, id, now()), tick(), tick()]);
    expect(started.instance.status).toBe('starting');
    const after = await row(id);
    const due = Math.ceil((now().getTime() - (before.paidThrough?.getTime() ?? 0)) / 60_000);
    expect(due).toBeGreaterThanOrEqual(1);
    expect(after.computeMinutes - before.computeMinutes).toBe(0);
    expect(after.storageMinutes - before.storageMinutes).toBe(due);
    await untilRunning(id); // ready again: one compute minute, once
    const ready = await row(id);
    expect(ready.computeMinutes - before.computeMinutes).toBe(1);
    const keys = await t.database.db
      .select({ key: ledgerTransactions.idempotencyKey })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, `instance:${id}`));
    expect(keys.filter((k) => k.key?.includes(':ready:'))).toHaveLength(2);
    expect(await micros(user.userId)).toBe(10_000_000n - ready.chargedMicros);
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it('a readiness after the worker was away charges the storage minutes due with its first compute minute', async () => {
    const { user, id } = await vm('10.00');
    await untilRunning(id);
    await svc().stop(user.userId, id, now());
    await tick(); // the demo host confirms the stop
    const before = await row(id);
    // No worker pass for 150 s after paid time ran out: three storage minutes have begun.
    t.clock.advance((before.paidThrough?.getTime() ?? 0) + 150_000 - now().getTime());
    const started = await svc().start(user.userId, id, now());
    expect((await row(id)).chargedMicros).toBe(before.chargedMicros);
    const report = await t.app.deps.hosts.report({
      instanceId: id,
      generation: started.instance.generation,
      state: 'running',
    });
    expect(report.accepted).toBe(true);
    const after = await row(id);
    expect(after.computeMinutes - before.computeMinutes).toBe(1);
    expect(after.storageMinutes - before.storageMinutes).toBe(3);
    expect(after.chargedMicros - before.chargedMicros).toBe(20_000n + 3n * 1_000n);
    await tick(); // nothing is due any more
    expect((await row(id)).chargedMicros).toBe(after.chargedMicros);
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it('stopped: gives the unit back and charges storage only; start takes it again', async () => {
    const { user, listing, id } = await vm('10.00');
    await untilRunning(id);
    await tick();
    const stopping = await svc().stop(user.userId, id, now());
    expect(stopping.instance.status).toBe('stopping');
    expect(await available(listing.id)).toBe(2);
    await tick(); // the demo host reports the stop
    expect((await row(id)).status).toBe('stopped');
    const before = await row(id);
    t.clock.advance(3 * 60_000);
    await tick();
    const after = await row(id);
    expect(after.computeMinutes).toBe(before.computeMinutes);
    expect(after.storageMinutes - before.storageMinutes).toBe(3);
    const started = await svc().start(user.userId, id, now());
    expect(started.instance.status).toBe('starting');
    expect(await available(listing.id)).toBe(1);
    await untilRunning(id);
  });

  it('a stopped instance whose GPU was taken stays stopped: 409 CAPACITY_UNAVAILABLE', async () => {
    const { user, listing, id } = await vm('10.00', 1);
    await untilRunning(id);
    await svc().stop(user.userId, id, now());
    await tick();
    const other = await t.signIn({ credits: '10.00' });
    await svc().createMetered(
      other.userId,
      { gpuListingId: listing.id, source: 'deploy', storageGb: 50 },
      now(),
    );
    const error = await refusal(svc().start(user.userId, id, now()));
    expect(error.status).toBe(409);
    expect(error.code).toBe('CAPACITY_UNAVAILABLE');
    expect((await row(id)).status).toBe('stopped');
  });

  it('refuses what the lifecycle does not allow with the allowed actions', async () => {
    const { user, id } = await vm('10.00');
    const error = await refusal(svc().start(user.userId, id, now()));
    expect(error.status).toBe(409);
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.details).toMatchObject({ state: 'provisioning', allowedActions: ['terminate'] });
    const stop = await refusal(svc().stop(user.userId, id, now()));
    expect(stop.code).toBe('INVALID_STATE_TRANSITION');
    const stranger = await t.signIn();
    expect((await refusal(svc().terminate(stranger.userId, id, now()))).status).toBe(404);
  });

  it('terminated: the unit goes back and no minute is charged any more', async () => {
    const { user, listing, id } = await vm('10.00');
    await untilRunning(id);
    await tick();
    const ended = await svc().terminate(user.userId, id, now());
    expect(ended.instance.status).toBe('terminating');
    expect(await available(listing.id)).toBe(2);
    await tick();
    const done = await row(id);
    expect(done.status).toBe('terminated');
    t.clock.advance(10 * 60_000);
    await tick();
    expect((await row(id)).chargedMicros).toBe(done.chargedMicros);
    // A repeated terminate or stop answers with the instance as it is; a start is impossible.
    const again = await svc().terminate(user.userId, id, now());
    expect(again.instance.status).toBe('terminated');
    expect((await svc().stop(user.userId, id, now())).instance.status).toBe('terminated');
    expect((await refusal(svc().start(user.userId, id, now()))).code).toBe(
      'INVALID_STATE_TRANSITION',
    );
    expect((await row(id)).generation).toBe(done.generation);
  });
});

describe('running out of credits', () => {
  it('stops (never deletes) an instance the wallet cannot pay, tells the user by e-mail and banner', async () => {
    const { user, id } = await vm('1.30');
    await untilRunning(id);
    await tick();
    // Spend the wallet down to less than a minute of compute.
    const balance = await ledgerService.walletBalance(t.database.db, user.userId);
    await t.database.db.transaction(async (tx) => {
      const wallet = await ledgerService.walletAccount(tx, user.userId);
      const platform = await ledgerService.systemAccount(tx, 'platform_revenue');
      await ledgerService.post(tx, {
        kind: 'demo_credits_expired', // a debit no cap counts
        memo: 'test',
        lines: [
          { accountId: wallet, amountMicros: -(balance - 10_000n) },
          { accountId: platform, amountMicros: balance - 10_000n, system: true },
        ],
      });
    });
    t.clock.advance(60_000);
    await tick();
    const stopped = await row(id);
    expect(['stopping', 'stopped']).toContain(stopped.status);
    expect(stopped.endReason).toBe('insufficient_credits');
    expect(stopped.endTime).toBeNull();
    expect(await mailed(await emailOf(user.cookie), `Instance #${id} was stopped`)).toBe(1);
    const me = (
      await t.request({ method: 'GET', url: '/api/auth/user', cookie: user.cookie })
    ).json();
    expect(me.balanceAlert).toEqual({ kind: 'out_of_credits', stoppedInstances: 1 });
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it('warns once per crossing of the low-balance threshold (default: one hour of spend)', async () => {
    const { user, id } = await vm('1.40');
    await untilRunning(id);
    await tick();
    const email = await emailOf(user.cookie);
    const warnings = () =>
      t.mailer.sent.filter((m) => m.to === email && m.subject.includes('running low')).length;
    // $1.40 less the first minutes is above one hour ($1.26): no warning yet.
    expect(warnings()).toBe(0);
    t.clock.advance(8 * 60_000);
    await tick();
    expect(await mailed(email, 'running low')).toBe(1);
    t.clock.advance(60_000);
    await tick();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warnings()).toBe(1);
    const me = (
      await t.request({ method: 'GET', url: '/api/auth/user', cookie: user.cookie })
    ).json();
    expect(me.balanceAlert).toEqual({ kind: 'low_balance', stoppedInstances: 0 });
    // Topped up: the banner goes; falling below again warns again.
    await t.database.db.transaction((tx) =>
      ledgerService.grant(tx, {
        userId: user.userId,
        amountMicros: 5_000_000n,
        from: 'promotions',
        memo: 'top-up',
      }),
    );
    await tick();
    const after = (
      await t.request({ method: 'GET', url: '/api/auth/user', cookie: user.cookie })
    ).json();
    expect(after.balanceAlert).toBeNull();
  });

  it('uses the low-balance threshold from the settings when one is set', async () => {
    const { user, id } = await vm('5.00');
    await untilRunning(id);
    const settings = (
      await t.request({
        method: 'GET',
        url: `/api/users/${user.userId}/settings`,
        cookie: user.cookie,
      })
    ).json();
    expect(settings.billing).toEqual({
      lowBalanceThreshold: null,
      dailySpendCap: null,
      monthlySpendCap: null,
      idleStopMinutes: 0,
      idleThresholdPercent: 5,
    });
    const saved = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.userId}/settings`,
      cookie: user.cookie,
      payload: { ...settings, billing: { lowBalanceThreshold: '6.00' } },
    });
    expect(saved.statusCode).toBe(200);
    await tick();
    const me = (
      await t.request({ method: 'GET', url: '/api/auth/user', cookie: user.cookie })
    ).json();
    expect(me.balanceAlert).toEqual({ kind: 'low_balance', stoppedInstances: 0 });
  });
});

describe('the hosts seam', () => {
  it('ignores a report of an older generation and a transition the lifecycle lacks', async () => {
    const { user, id } = await vm('10.00');
    const hosts = t.app.deps.hosts;
    expect(await hosts.report({ instanceId: id, generation: 1, state: 'stopped' })).toEqual({
      accepted: false,
      generation: 1,
    });
    const ready = await hosts.report({
      instanceId: id,
      generation: 1,
      state: 'running',
      connection: { sshHost: 'h.example', sshPort: 40_001 },
    });
    expect(ready).toEqual({ accepted: true, generation: 2 });
    await svc().stop(user.userId, id, now()); // generation 3
    expect(await hosts.report({ instanceId: id, generation: 2, state: 'stopped' })).toEqual({
      accepted: false,
      generation: 3,
    });
    expect((await row(id)).status).toBe('stopping');
    expect((await hosts.report({ instanceId: id, generation: 3, state: 'stopped' })).accepted).toBe(
      true,
    );
  });

  it('a host failure ends the instance and gives its unit back', async () => {
    const { listing, id } = await vm('10.00');
    await untilRunning(id);
    const { generation } = await row(id);
    await t.app.deps.hosts.report({ instanceId: id, generation, state: 'failed' });
    expect(await row(id)).toMatchObject({ status: 'failed', endReason: 'host_failed' });
    expect(await available(listing.id)).toBe(2);
  });
});
