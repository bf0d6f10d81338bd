import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { clientAddresses, uniqueEmail as unique } from '../../test/addresses';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { AUTH_LIMITS } from './codes';
import { TWO_FACTOR } from './two-factor';

/**
 * Guessing six-digit codes (issue 39): every try of a sign-in code, an e-mail change code and
 * a two-factor code counts per client address and per target (the address signing in, the
 * user), and over either limit it is refused 429 with Retry-After — a right code too.
 */

let t: TestApp;
const nextIp = clientAddresses(39);

withTestApp({}, (app) => {
  t = app;
});

const post = (url: string, payload: object, ip = nextIp(), cookie?: string) =>
  t.request({ method: 'POST', url, payload, remoteAddress: ip, ...(cookie ? { cookie } : {}) });

const sendCode = (email: string) => post('/api/auth/send-otp', { email });
const verify = (email: string, otp: string, ip = nextIp()) =>
  post('/api/auth/verify-otp', { email, otp }, ip);

/** A six-digit code that is not `right`. */
const wrongFor = (right: string) => (right === '000000' ? '000001' : '000000');

function expectLimited(res: Awaited<ReturnType<typeof post>>) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(res.json()).toEqual({
    error: {
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { retryAfterSeconds: retryAfter },
    },
  });
}

describe('sign-in codes', () => {
  it('per address signing in: tries from many client addresses stop at the limit, then even the right code is 429 until the window ends', async () => {
    const email = unique('target');
    await sendCode(email);
    const limit = AUTH_LIMITS.verifyPerTarget.limit;
    // Each from its own client address: only the target's counter sees them all. The code is
    // retired after its fifth wrong try (400 OTP_EXPIRED); the tries still count.
    for (let i = 0; i < limit; i++) {
      const res = await verify(email, wrongFor(t.mailer.lastCodeFor(email)));
      expect(res.statusCode).toBe(400);
    }
    await sendCode(email);
    const right = t.mailer.lastCodeFor(email);
    expectLimited(await verify(email, right));
    // Another address signing in is not limited by these tries.
    const other = unique('other');
    await sendCode(other);
    expect((await verify(other, t.mailer.lastCodeFor(other))).statusCode).toBe(200);

    t.clock.advance(AUTH_LIMITS.verifyPerTarget.windowMs + 1000);
    await sendCode(email);
    expect((await verify(email, t.mailer.lastCodeFor(email))).statusCode).toBe(200);
  });

  it('per client address: tries across many addresses signing in stop at the limit', async () => {
    const ip = nextIp();
    const limit = AUTH_LIMITS.verifyPerIp.limit;
    for (let i = 0; i < limit; i++)
      expect((await verify(unique(`ip${i}`), '123456', ip)).statusCode).toBe(400);
    const email = unique('after');
    await sendCode(email);
    expectLimited(await verify(email, t.mailer.lastCodeFor(email), ip));
    expect((await verify(email, t.mailer.lastCodeFor(email))).statusCode).toBe(200);
  });
});

describe('e-mail change codes', () => {
  it('per user: wrong codes stop at the limit, then the right one is 429', async () => {
    const { userId, cookie } = await t.signIn({ email: unique('changer') });
    const patch = (email: string) =>
      t.request({
        method: 'PATCH',
        url: `/api/users/${userId}`,
        payload: { email },
        cookie,
        remoteAddress: nextIp(),
      });
    const confirm = (otp: string) =>
      post(`/api/users/${userId}/email/confirm`, { otp }, nextIp(), cookie);
    const next = unique('new');
    expect((await patch(next)).statusCode).toBe(200);
    for (let i = 0; i < AUTH_LIMITS.verifyPerTarget.limit; i++)
      expect((await confirm(wrongFor(t.mailer.lastCodeFor(next)))).statusCode).toBe(400);
    expect((await patch(next)).statusCode).toBe(200);
    expectLimited(await confirm(t.mailer.lastCodeFor(next)));
  });
});

describe('two-factor codes', () => {
  function appCode(secret: string) {
    const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30 });
    return totp.generate({ timestamp: t.clock.now().getTime() });
  }

  async function pendingSetup() {
    const { cookie } = await t.signIn({ email: unique('tfa') });
    const setup = await post('/api/auth/two-factor/setup', {}, nextIp(), cookie);
    expect(setup.statusCode).toBe(200);
    return { cookie, secret: setup.json().secret as string };
  }

  it('per user: wrong codes from many addresses stop at the limit, then the right one is 429', async () => {
    t.clock.advance(TWO_FACTOR.perUser.windowMs + 1000);
    const { cookie, secret } = await pendingSetup();
    const enable = (code: string) =>
      post('/api/auth/two-factor/enable', { code }, nextIp(), cookie);
    for (let i = 0; i < TWO_FACTOR.perUser.limit; i++)
      expect((await enable(wrongFor(appCode(secret)))).statusCode).toBe(400);
    expectLimited(await enable(appCode(secret)));
    t.clock.advance(TWO_FACTOR.perUser.windowMs + 1000);
    expect((await enable(appCode(secret))).statusCode).toBe(200);
  });

  it('per client address: tries against several accounts stop at the limit', async () => {
    t.clock.advance(TWO_FACTOR.perUser.windowMs + 1000);
    const ip = nextIp();
    const perUser = TWO_FACTOR.perUser.limit - 1;
    const accounts = Math.ceil(AUTH_LIMITS.verifyPerIp.limit / perUser);
    const statuses: number[] = [];
    for (let a = 0; a < accounts; a++) {
      const { cookie, secret } = await pendingSetup();
      for (let i = 0; i < perUser; i++) {
        const res = await post(
          '/api/auth/two-factor/enable',
          { code: wrongFor(appCode(secret)) },
          ip,
          cookie,
        );
        statuses.push(res.statusCode);
      }
    }
    const limit = AUTH_LIMITS.verifyPerIp.limit;
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(400));
    expect(new Set(statuses.slice(limit))).toEqual(new Set([429]));
    // A fresh account from this address is refused too, from another it is not.
    const { cookie, secret } = await pendingSetup();
    expectLimited(await post('/api/auth/two-factor/enable', { code: appCode(secret) }, ip, cookie));
    const other = await post(
      '/api/auth/two-factor/enable',
      { code: appCode(secret) },
      nextIp(),
      cookie,
    );
    expect(other.statusCode).toBe(200);
  });
});
