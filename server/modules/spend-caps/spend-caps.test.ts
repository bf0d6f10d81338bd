import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type UserSettings } from '../../../shared/contracts/settings';
import { instances, spendPeriods } from '../../db/schema';
import type { TestApp } from '../../test/app';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { NOON_TODAY, SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { checkInvariants } from '../ledger/invariants';
import { ledgerService } from '../ledger/service';

/**
 * Spend caps (issue 23, part 6): set through the settings API and per API key, enforced in
 * the charge's transaction at launch (402 SPEND_CAP_REACHED) and by the metered minute,
 * which stops the scope's running instances after an 80% warning. Manual clock throughout.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV, clockStart: NOON_TODAY }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const v1 = (...args: V1Args) => v1Request(t, ...args);
const now = () => t.clock.now();
const tick = () => t.app.deps.worker.runOnce(now());

async function setCaps(
  user: { userId: string; cookie: string },
  caps: Partial<UserSettings['billing']>,
) {
  return t.request({
    method: 'PATCH',
    url: `/api/users/${user.userId}/settings`,
    cookie: user.cookie,
    payload: { ...DEFAULT_SETTINGS, billing: { ...DEFAULT_SETTINGS.billing, ...caps } },
  });
}

const rent = (cookie: string, body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/rentals', payload: body, cookie });

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

async function counter(userId: string, scope: string, period: 'day' | 'month') {
  const rows = await t.database.db
    .select()
    .from(spendPeriods)
    .where(
      and(
        eq(spendPeriods.userId, userId),
        eq(spendPeriods.scope, scope),
        eq(spendPeriods.period, period),
      ),
    );
  return rows.at(-1) ?? null;
}

async function emailOf(cookie: string): Promise<string> {
  return (await t.request({ method: 'GET', url: '/api/auth/user', cookie })).json().email;
}

/** A metered VM at $1.20/h (2¢ a minute of compute), created on the web. */
async function vm(userId: string, listingId: number) {
  const created = await t.app.deps.instances.createMetered(
    userId,
    { gpuListingId: listingId, source: 'vm', template: 'ubuntu-22.04', storageGb: 60 },
    now(),
  );
  return created.instance.id;
}

describe('the caps in the settings API', () => {
  it('saves daily and monthly caps and reads them back', async () => {
    const user = await t.signIn();
    const res = await setCaps(user, { dailySpendCap: '50', monthlySpendCap: '500.25' });
    expect(res.statusCode).toBe(200);
    const got = await t.request({
      method: 'GET',
      url: `/api/users/${user.userId}/settings`,
      cookie: user.cookie,
    });
    expect(got.json().billing).toEqual({
      lowBalanceThreshold: null,
      dailySpendCap: '50',
      monthlySpendCap: '500.25',
      idleStopMinutes: 0,
      idleThresholdPercent: 5,
    });
  });

  it('answers 400 VALIDATION_FAILED naming the field for a cap that is not an amount above 0', async () => {
    const user = await t.signIn();
    for (const bad of ['abc', '0', '0.00', '-5', '1.234', '99999999', 12]) {
      const res = await setCaps(user, { dailySpendCap: bad as string });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(res.json().error.message).toMatch(/dailySpendCap/);
    }
  });
});

describe('a launch that would cross a cap', () => {
  it('is refused with 402 SPEND_CAP_REACHED and {cap, spent, period}, nothing charged', async () => {
    const user = await t.signIn({ credits: '100.00' });
    expect((await setCaps(user, { dailySpendCap: '20.00' })).statusCode).toBe(200);
    const listing = await w.listing({ hourlyRate: '1.45', totalCount: 3 });
    expect((await rent(user.cookie, w.rentBody(listing, 10))).statusCode).toBe(201);
    const before = await w.balance(user.cookie);
    const res = await rent(user.cookie, w.rentBody(listing, 4));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: {
        code: 'SPEND_CAP_REACHED',
        message: 'This charge would go over your daily spend cap.',
        // The cap sees all the wallet paid: $14.50 booked and the $2.50 storage add-on.
        details: { cap: '20.00', spent: '17.00', period: 'day', scope: 'account' },
      },
    });
    expect(await w.balance(user.cookie)).toBe(before);
    expect((await counter(user.userId, 'account', 'day'))?.spentMicros).toBe(17_000_000n);
    // A monthly cap counts too.
    expect(
      (await setCaps(user, { dailySpendCap: '50.00', monthlySpendCap: '19.00' })).statusCode,
    ).toBe(200);
    const refused = await rent(user.cookie, w.rentBody(listing, 1));
    expect(refused.json().error.details).toEqual({
      cap: '19.00',
      spent: '17.00',
      period: 'month',
      scope: 'account',
    });
  });

  it('lets at most the allowed spend through when two launches race for it', async () => {
    const user = await t.signIn({ credits: '100.00' });
    await setCaps(user, { dailySpendCap: '20.00' });
    const listing = await w.listing({ hourlyRate: '1.45', totalCount: 4 });
    const answers = await Promise.all([
      rent(user.cookie, w.rentBody(listing, 10)),
      rent(user.cookie, w.rentBody(listing, 10)),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 402]);
    const spent = (await counter(user.userId, 'account', 'day'))?.spentMicros ?? 0n;
    expect(spent).toBe(17_000_000n); // the booking and its storage add-on
    // $100 less one rental ($14.50) and its storage add-on ($2.50).
    expect(await w.balance(user.cookie)).toBe('83.00');
  });
});

describe('a metered minute that would cross a cap', () => {
  it('warns at 80%, then stops (never deletes) the running instances and refuses launches', async () => {
    const user = await t.signIn({ credits: '10.00' });
    // 10¢ a day: four minutes of compute at 2¢ with their storage (0.1¢ a minute, 60 GB)
    // and the storage minute it was created with; the caps count storage too.
    await setCaps(user, { dailySpendCap: '0.10' });
    const listing = await w.listing({ hourlyRate: '1.20', totalCount: 3 });
    const id = await vm(user.userId, listing.id);
    t.clock.advance(20_000);
    await tick();
    expect((await row(id)).status).toBe('running');
    let warnedAt: Date | null = null;
    let warnedWhileRunning = false;
    for (let minute = 0; minute < 8; minute++) {
      await tick();
      const c = await counter(user.userId, 'account', 'day');
      expect(c?.spentMicros ?? 0n).toBeLessThanOrEqual(100_000n);
      if (c?.warnedAt && !warnedAt) {
        warnedAt = c.warnedAt;
        warnedWhileRunning = (await row(id)).status === 'running';
      }
      t.clock.advance(60_000);
    }
    const stopped = await row(id);
    expect(['stopping', 'stopped']).toContain(stopped.status);
    expect(stopped.endReason).toBe('spend_cap');
    expect(stopped.endTime).toBeNull();
    expect(stopped.computeMinutes).toBe(4);
    expect(warnedWhileRunning).toBe(true);
    expect(warnedAt?.getTime()).toBeLessThan(stopped.stateChangedAt.getTime());
    const email = await emailOf(user.cookie);
    await vi.waitFor(
      () => {
        const subjects = t.mailer.sent.filter((m) => m.to === email).map((m) => m.subject);
        expect(subjects).toContain('You have spent 80% of your daily spend cap');
        expect(subjects).toContain(`Instance #${id} was stopped: a spend cap was reached`);
      },
      { timeout: 10_000 },
    );
    // Launching again is refused while the day's cap is reached.
    const refused = await t.app.deps.instances
      .createMetered(
        user.userId,
        { gpuListingId: listing.id, source: 'vm', template: 'ubuntu-22.04', storageGb: 60 },
        now(),
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toMatchObject({
      code: 'SPEND_CAP_REACHED',
      details: { cap: '0.10', period: 'day', scope: 'account' },
    });
    // Storage went on while stopped, until it too would have crossed the cap: never past it.
    const spent = (await counter(user.userId, 'account', 'day'))?.spentMicros ?? 0n;
    expect(spent).toBeLessThanOrEqual(100_000n);
    expect(spent).toBe((await row(id)).chargedMicros);
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });
});

describe('a cap per API key', () => {
  it('stops only what the key launched, refuses its launches, and validates its caps', async () => {
    const user = await t.signIn({ credits: '20.00' });
    const { key, keyId } = await createApiKey(t, user.cookie, ['read', 'write', 'admin']);
    const listing = await w.listing({ hourlyRate: '1.20', totalCount: 4 });
    expect(
      (await v1(key, 'PUT', `/api-keys/${keyId}/caps`, { dailySpendCap: 'x' })).statusCode,
    ).toBe(400);
    const missing = await v1(key, 'PUT', '/api-keys/00000000-0000-4000-8000-000000000000/caps', {
      dailySpendCap: null,
      monthlySpendCap: null,
    });
    expect(missing.statusCode).toBe(404);
    const set = await v1(key, 'PUT', `/api-keys/${keyId}/caps`, {
      dailySpendCap: '0.06',
      monthlySpendCap: null,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().apiKey).toMatchObject({ dailySpendCap: '0.06', monthlySpendCap: null });
    const web = await t.request({ method: 'GET', url: '/api/auth/api-keys', cookie: user.cookie });
    expect(web.json()[0]).toMatchObject({ id: keyId, dailySpendCap: '0.06' });

    const created = await v1(key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(created.statusCode).toBe(201);
    const byKey = created.json().instance.id as number;
    const byWeb = await vm(user.userId, listing.id);
    expect((await row(byKey)).apiKeyId).toBe(keyId);
    expect((await row(byWeb)).apiKeyId).toBeNull();
    t.clock.advance(20_000);
    for (let minute = 0; minute < 6; minute++) {
      await tick();
      t.clock.advance(60_000);
    }
    const keyOne = await row(byKey);
    expect(['stopping', 'stopped']).toContain(keyOne.status);
    expect(keyOne.endReason).toBe('spend_cap');
    // 2¢ compute minutes from ready with their storage (50 GB: 834 µ$ a minute): two fit.
    expect(keyOne.computeMinutes).toBe(2);
    expect((await row(byWeb)).status).toBe('running');
    // The key's counter is exactly what its instance took from the wallet, never past the cap.
    const keySpent = (await counter(user.userId, keyId, 'day'))?.spentMicros ?? 0n;
    expect(keySpent).toBe((await row(byKey)).chargedMicros);
    expect(keySpent).toBeLessThanOrEqual(60_000n);
    const again = await v1(key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(again.statusCode).toBe(402);
    expect(again.json().error).toMatchObject({
      code: 'SPEND_CAP_REACHED',
      details: { cap: '0.06', period: 'day', scope: 'api_key' },
    });
    // The web's own launches are not the key's: they still go through.
    expect(await vm(user.userId, listing.id)).toBeGreaterThan(0);
    expect(await ledgerService.walletBalance(t.database.db, user.userId)).toBeGreaterThan(0n);
  });
});
