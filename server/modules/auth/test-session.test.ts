import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../env';
import { GUESS_LIMITS } from '../../lib/guess-limits';
import { createTestApp, type TestApp } from '../../test/app';

/** The browser tests' sign-in without an e-mailed code (TEST_SESSION_SECRET; never production). */
const SECRET = 'e2e-'.padEnd(40, 'x');
let withSecret: TestApp;
let without: TestApp;
beforeAll(async () => {
  [withSecret, without] = await Promise.all([
    createTestApp({ env: { TEST_SESSION_SECRET: SECRET } }),
    createTestApp(),
  ]);
});
afterAll(async () => {
  await Promise.all([withSecret.close(), without.close()]);
});

const signIn = (t: TestApp, secret: string | null, email = 'browser@example.test') =>
  t.request({
    method: 'POST',
    url: '/api/test/session',
    payload: { email },
    headers: secret === null ? {} : { 'x-test-session-secret': secret },
  });

describe('POST /api/test/session', () => {
  it('signs an address in with the secret: the account a code would make and its session', async () => {
    const res = await signIn(withSecret, SECRET);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Login successful',
      user: { email: 'browser@example.test' },
    });
    const cookie = res.cookies.find((c) => c.name === 'rentgpu_session');
    expect(cookie?.httpOnly).toBe(true);
    const me = await withSecret.request({
      method: 'GET',
      url: '/api/auth/user',
      cookie: `rentgpu_session=${cookie?.value}`,
    });
    expect(me.json()).toMatchObject({ email: 'browser@example.test' });
    // The same address again is the same account.
    const again = await signIn(withSecret, SECRET);
    expect(again.json().user.id).toBe(res.json().user.id);
  });

  it('is Not Found without the secret, with a wrong one, and on a server without one', async () => {
    for (const res of [
      await signIn(withSecret, null),
      await signIn(withSecret, `${SECRET.slice(0, -1)}y`),
      await signIn(withSecret, 'short'),
      await signIn(without, SECRET),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('wrong secrets from one address: 404 up to the limit, then 429 with Retry-After, the right one too', async () => {
    const from = (secret: string | null, remoteAddress: string) =>
      withSecret.request({
        method: 'POST',
        url: '/api/test/session',
        payload: { email: 'browser@example.test' },
        headers: secret === null ? {} : { 'x-test-session-secret': secret },
        remoteAddress,
      });
    const { limit } = GUESS_LIMITS.testSession.perAddress;
    // Right ones are given back: a browser test run signs in all day.
    for (let i = 0; i < limit + 2; i++)
      expect((await from(SECRET, '192.0.2.10')).statusCode).toBe(200);
    for (let i = 0; i < limit; i++)
      expect((await from(`${SECRET.slice(0, -1)}z`, '192.0.2.10')).statusCode).toBe(404);
    const limited = await from(SECRET, '192.0.2.10');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect((await from(SECRET, '192.0.2.11')).statusCode).toBe(200);
  });

  it('a bad address is a 400, not an account', async () => {
    const res = await signIn(withSecret, SECRET, 'not-an-address');
    expect(res.statusCode).toBe(400);
  });

  it('is refused in production', () => {
    expect(() =>
      parseEnv({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://rentgpu.example',
        TEST_SESSION_SECRET: SECRET,
      }),
    ).toThrow(ConfigError);
  });
});
