import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type UserSettings } from '../../../shared/contracts/settings';
import { bookedCharge, launchRefusal } from '../../../shared/rules/balance-guard';
import { dollarsToMicros } from '../../../shared/rules/money';
import type { TestApp } from '../../test/app';
import { NOON_TODAY, SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';

/**
 * GET /api/payments/limits (issue 42, part 3): the balance and the account's spend caps with
 * what was spent in their periods, which the launch screens set a launch against before they
 * send it. What it answers refuses exactly what the server then refuses.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV, clockStart: NOON_TODAY }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const limits = (cookie?: string) =>
  t.request({ method: 'GET', url: '/api/payments/limits', ...(cookie ? { cookie } : {}) });

const setCaps = (
  user: { userId: string; cookie: string },
  caps: Partial<UserSettings['billing']>,
) =>
  t.request({
    method: 'PATCH',
    url: `/api/users/${user.userId}/settings`,
    cookie: user.cookie,
    payload: { ...DEFAULT_SETTINGS, billing: { ...DEFAULT_SETTINGS.billing, ...caps } },
  });

describe('GET /api/payments/limits', () => {
  it('needs a signed-in user', async () => {
    expect((await limits()).statusCode).toBe(401);
  });

  it('answers the balance and no caps for a new account', async () => {
    const user = await t.signIn({ credits: '0' });
    const res = await limits(user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: '0.00', caps: [] });
  });

  it('answers each cap with what its period has spent, and refuses what the server refuses', async () => {
    const user = await t.signIn({ credits: '100.00' });
    expect(
      (await setCaps(user, { dailySpendCap: '25.00', monthlySpendCap: '500.00' })).statusCode,
    ).toBe(200);
    const listing = await w.listing({ hourlyRate: '1.45', totalCount: 3 });
    const rented = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: w.rentBody(listing, 10),
      cookie: user.cookie,
    });
    expect(rented.statusCode).toBe(201);
    const answer = (await limits(user.cookie)).json();
    // $14.50 booked and the $2.50 storage add-on, from the wallet and against both caps.
    expect(answer).toEqual({
      balance: '83.00',
      caps: [
        { period: 'day', cap: '25.00', spent: '17.00' },
        { period: 'month', cap: '500.00', spent: '17.00' },
      ],
    });
    const rate = dollarsToMicros('1.45');
    // 3 hours more fit the daily cap ($17.00 + $6.85); 4 hours do not ($17.00 + $8.30).
    expect(launchRefusal(bookedCharge(rate, 3), answer)).toBeNull();
    expect(launchRefusal(bookedCharge(rate, 4), answer)?.kind).toBe('cap');
    const refused = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: w.rentBody(listing, 4),
      cookie: user.cookie,
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('SPEND_CAP_REACHED');
  });

  it('answers the balance to the micro-dollar, so a guard never admits a rounded-up one', async () => {
    const user = await t.signIn({ credits: '37.299999' });
    expect((await limits(user.cookie)).json().balance).toBe('37.299999');
  });
});
