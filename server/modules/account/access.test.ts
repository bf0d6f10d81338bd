import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/contracts/settings';
import { createTestApp, type TestApp } from '../../test/app';

/** One sweep: every /api/users/{userId}… route called as another user answers 403 and changes nothing. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ROUTES = [
  ['GET', '/api/users/:id', undefined],
  ['PATCH', '/api/users/:id', { firstName: 'Mallory' }],
  ['PATCH', '/api/users/:id', { email: 'mallory@example.test' }],
  ['POST', '/api/users/:id/email/confirm', { otp: '123456' }],
  ['DELETE', '/api/users/:id/email/pending', undefined],
  ['GET', '/api/users/:id/settings', undefined],
  ['PATCH', '/api/users/:id/settings', DEFAULT_SETTINGS],
  ['GET', '/api/users/:id/export', undefined],
  ['DELETE', '/api/users/:id', undefined],
  ['GET', '/api/rentals/user/:id', undefined],
  ['GET', '/api/providers/user/:id', undefined],
] as const;

describe('routes under a user id', () => {
  it.each(ROUTES)('%s %s as another user: 403', async (method, path, payload) => {
    const victim = await t.signIn({ firstName: 'Victim' });
    const mallory = await t.signIn();
    const res = await t.request({
      method,
      url: path.replace(':id', victim.userId),
      cookie: mallory.cookie,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    const own = await t.request({
      method: 'GET',
      url: `/api/users/${victim.userId}`,
      cookie: victim.cookie,
    });
    expect(own.json()).toMatchObject({ firstName: 'Victim', pendingEmail: null });
  });

  it.each(ROUTES)('%s %s for a user id that does not exist: 403', async (method, path, payload) => {
    const mallory = await t.signIn();
    const res = await t.request({
      method,
      url: path.replace(':id', '00000000-0000-4000-8000-000000000000'),
      cookie: mallory.cookie,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(403);
  });

  it.each(ROUTES)('%s %s signed out: 401', async (method, path, payload) => {
    const victim = await t.signIn();
    const res = await t.request({
      method,
      url: path.replace(':id', victim.userId),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(401);
  });
});
