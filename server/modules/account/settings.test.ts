import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type UserSettings } from '../../../shared/contracts/settings';
import { apiKeys, sessions, users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;
const get = (userId: string, cookie: string) =>
  t.request({ method: 'GET', url: `/api/users/${userId}/settings`, cookie });
const save = (userId: string, cookie: string, payload: unknown) =>
  t.request({
    method: 'PATCH',
    url: `/api/users/${userId}/settings`,
    payload: payload as object,
    cookie,
  });

function withChanges(change: (s: UserSettings) => void): UserSettings {
  const copy = structuredClone(DEFAULT_SETTINGS);
  change(copy);
  return copy;
}

describe('GET /api/users/:userId/settings', () => {
  it('answers the default settings for a new user (docs/rules.md, Business constants)', async () => {
    const { userId, cookie } = await t.signIn();
    const res = await get(userId, cookie);
    expect(res.json()).toEqual(DEFAULT_SETTINGS);
  });

  it('fills missing or invalid stored values with defaults and reads the theme from the user', async () => {
    const { userId, cookie } = await t.signIn({ theme: 'pastel' });
    await t.database.db
      .update(users)
      .set({
        settings: { preferences: { currency: 'EUR', timezone: 'Mars/Olympus' }, security: 7 },
      })
      .where(eq(users.id, userId));
    const res = await get(userId, cookie);
    expect(res.json().preferences).toMatchObject({
      currency: 'EUR',
      timezone: 'UTC',
      theme: 'pastel',
    });
    expect(res.json().security).toEqual(DEFAULT_SETTINGS.security);
  });
});

describe('PATCH /api/users/:userId/settings', () => {
  it('saves the whole object, reads it back, and the current user shows the new currency', async () => {
    const { userId, cookie } = await t.signIn();
    const next = withChanges((s) => {
      s.preferences.currency = 'INR';
      s.preferences.timezone = 'Asia/Kolkata';
      s.preferences.language = 'hi';
      s.preferences.defaultRegion = 'india';
      s.notifications.marketingEmails = true;
      s.notifications.paymentAlerts = false;
    });
    const res = await save(userId, cookie, next);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(next);
    expect((await get(userId, cookie)).json()).toEqual(next);
    const current = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
    expect(current.json().currency).toBe('INR');
  });

  it('keeps the theme in step with PATCH /api/user/theme', async () => {
    const { userId, cookie } = await t.signIn();
    await save(
      userId,
      cookie,
      withChanges((s) => {
        s.preferences.theme = 'light';
      }),
    );
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).json().theme).toBe(
      'light',
    );
    await t.request({
      method: 'PATCH',
      url: '/api/user/theme',
      payload: { theme: 'pastel' },
      cookie,
    });
    expect((await get(userId, cookie)).json().preferences.theme).toBe('pastel');
  });

  it.each([
    [
      'a currency not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.preferences = { ...s.preferences, currency: 'BTC' };
      },
      'preferences.currency',
    ],
    [
      'a time zone not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.preferences = { ...s.preferences, timezone: 'Europe/Paris' };
      },
      'preferences.timezone',
    ],
    [
      'a region not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.preferences = { ...s.preferences, defaultRegion: 'moon' };
      },
      'preferences.defaultRegion',
    ],
    [
      'a language not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.preferences = { ...s.preferences, language: 'xx' };
      },
      'preferences.language',
    ],
    [
      'a session timeout not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.security = { ...s.security, sessionTimeout: '2h' };
      },
      'security.sessionTimeout',
    ],
    [
      'a key rotation not offered',
      (s: Record<string, Record<string, unknown>>) => {
        s.security = { ...s.security, apiKeyRotation: 'weekly' };
      },
      'security.apiKeyRotation',
    ],
    [
      'a switch that is not a boolean',
      (s: Record<string, Record<string, unknown>>) => {
        s.notifications = { ...s.notifications, email: 'yes' };
      },
      'notifications.email',
    ],
    [
      'a missing group',
      (s: Record<string, Record<string, unknown>>) => {
        delete s.notifications;
      },
      'notifications',
    ],
    [
      'two-factor on, which only its own routes change',
      (s: Record<string, Record<string, unknown>>) => {
        s.security = { ...s.security, twoFactorEnabled: true };
      },
      'security.twoFactorEnabled',
    ],
  ])('refuses %s', async (_label, change, field) => {
    const { userId, cookie } = await t.signIn();
    const body = structuredClone(DEFAULT_SETTINGS) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    change(body);
    const res = await save(userId, cookie, body);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.details.fields)).toContain(field);
    expect((await get(userId, cookie)).json()).toEqual(DEFAULT_SETTINGS);
  });
});

describe('session timeout', () => {
  it('sets the lifetime of the current session and its cookie, and caps the other sessions', async () => {
    const { userId, cookie } = await t.signIn();
    const other = await t.signIn();
    const res = await save(
      userId,
      cookie,
      withChanges((s) => {
        s.security.sessionTimeout = '1h';
      }),
    );
    const setCookie = res.cookies.find((c) => c.name === 'rentgpu_session');
    const now = t.clock.now().getTime();
    expect(setCookie?.expires?.getTime()).toBeGreaterThan(now + HOUR - 5_000);
    expect(setCookie?.expires?.getTime()).toBeLessThanOrEqual(now + HOUR + 1_000);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows.every((r) => r.expiresAt.getTime() <= now + HOUR)).toBe(true);
    t.clock.advance(HOUR + 1_000);
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).statusCode).toBe(
      401,
    );
    // Another user's session is untouched.
    expect(
      (await t.request({ method: 'GET', url: '/api/auth/user', cookie: other.cookie })).statusCode,
    ).toBe(200);
  });

  it('a new sign-in lives as long as the setting says (never: 400 days)', async () => {
    const email = `timeout-${Date.now()}@example.test`;
    const { userId, cookie } = await t.signIn({ email });
    await save(
      userId,
      cookie,
      withChanges((s) => {
        s.security.sessionTimeout = 'never';
      }),
    );
    await t.request({ method: 'POST', url: '/api/auth/send-otp', payload: { email } });
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email, otp: t.mailer.lastCodeFor(email) },
    });
    const expires = res.cookies.find((c) => c.name === 'rentgpu_session')?.expires?.getTime() ?? 0;
    expect(expires - t.clock.now().getTime()).toBeGreaterThan(399 * 24 * HOUR);
  });
});

describe('API key rotation', () => {
  it('dates the keys by their creation and the policy; back to manual clears it', async () => {
    const { userId, cookie } = await t.signIn();
    await t.request({ method: 'POST', url: '/api/auth/api-keys', payload: { name: 'ci' }, cookie });
    await save(
      userId,
      cookie,
      withChanges((s) => {
        s.security.apiKeyRotation = '30d';
      }),
    );
    const [key] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
    expect((key?.expiresAt?.getTime() ?? 0) - (key?.createdAt.getTime() ?? 0)).toBe(30 * 24 * HOUR);
    await save(userId, cookie, DEFAULT_SETTINGS);
    const [manual] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
    expect(manual?.expiresAt).toBeNull();
  });
});
