import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { otpCodes, sessions, users } from '../../db/schema';
import { seedDemoData } from '../../seed/seed';
import { clientAddresses, uniqueEmail as unique } from '../../test/addresses';
import { createTestApp, postRaw, type TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { AUTH_LIMITS } from './service';

let t: TestApp;
/** Each test gets its own client address so per-IP limits do not leak between tests. */
const nextIp = clientAddresses(0);

withTestApp({}, (app) => {
  t = app;
});

async function sendCode(email: string, ip = nextIp()) {
  return t.request({
    method: 'POST',
    url: '/api/auth/send-otp',
    payload: { email },
    remoteAddress: ip,
  });
}

async function verify(email: string, otp: string, extra: { cookie?: string; ip?: string } = {}) {
  return t.request({
    method: 'POST',
    url: '/api/auth/verify-otp',
    payload: { email, otp },
    remoteAddress: extra.ip ?? nextIp(),
    ...(extra.cookie ? { cookie: extra.cookie } : {}),
  });
}

function sessionCookie(res: { cookies: { name: string; value: string }[] }) {
  const cookie = res.cookies.find((c) => c.name === 'rentgpu_session');
  if (!cookie) throw new Error('no session cookie set');
  return cookie;
}

describe('GET /api/auth/user', () => {
  it('answers 401 in the error body when signed out', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue.', details: {} },
    });
  });

  it('answers 401 for an unknown or expired session token', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/auth/user',
      cookie: 'rentgpu_session=forged',
    });
    expect(res.statusCode).toBe(401);
  });

  it('returns the signed-in user with the balance as a dollar string', async () => {
    const { cookie } = await t.signIn({ firstName: 'Ada', lastName: 'Lovelace', credits: '12.50' });
    const res = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      credits: '12.50',
      theme: 'dark',
      isProvider: false,
    });
  });
});

describe('POST /api/auth/send-otp', () => {
  it("answers with the spec's text and the same body for known and unknown addresses", async () => {
    const known = unique('known');
    await t.signIn({ email: known });
    const unknown = unique('unknown');
    const a = await sendCode(known);
    const b = await sendCode(unknown);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual({
      message: `OTP sent to ${known}. Check the server console for the code.`,
    });
    expect(b.json()).toEqual({
      message: `OTP sent to ${unknown}. Check the server console for the code.`,
    });
    expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
  });

  it('mails a 6-digit code and stores only its hash', async () => {
    const email = unique('hash');
    await sendCode(email);
    const code = t.mailer.lastCodeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.database.db.select().from(otpCodes).where(eq(otpCodes.email, email));
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(code);
    expect(rows[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('normalises the address and rejects a malformed one with field details', async () => {
    const res = await sendCode('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { fields: { email: ['Please enter a valid email address'] } },
      },
    });
    const missing = await t.request({ method: 'POST', url: '/api/auth/send-otp', payload: {} });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses a body that is not JSON with a 4xx in the error body', async () => {
    const bad = await postRaw(t, '/api/auth/send-otp', '{"email":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('BAD_REQUEST');
    const wrongType = await postRaw(
      t,
      '/api/auth/send-otp',
      'email=a@b.co',
      'application/x-www-form-urlencoded',
    );
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('limits codes per address, answering 429 with Retry-After', async () => {
    const email = unique('limit');
    for (let i = 0; i < AUTH_LIMITS.sendPerEmail.limit; i += 1) {
      expect((await sendCode(email)).statusCode).toBe(200);
    }
    const limited = await sendCode(email);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
  });

  it('limits codes per IP address across different e-mails', async () => {
    const ip = nextIp();
    for (let i = 0; i < AUTH_LIMITS.sendPerIp.limit; i += 1) {
      expect((await sendCode(unique(`ip${i}`), ip)).statusCode).toBe(200);
    }
    expect((await sendCode(unique('ip-over'), ip)).statusCode).toBe(429);
    expect((await sendCode(unique('other-ip'))).statusCode).toBe(200);
  });
});

describe('POST /api/auth/verify-otp', () => {
  it('creates the account on first sign-in and sets a safe session cookie', async () => {
    const email = unique('new');
    await sendCode(email);
    const res = await verify(email, t.mailer.lastCodeFor(email));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Login successful',
      user: { email, credits: '0.00' },
    });
    const cookie = sessionCookie(res);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['set-cookie']).not.toMatch(/Secure/);

    const me = await t.request({
      method: 'GET',
      url: '/api/auth/user',
      cookie: `rentgpu_session=${cookie.value}`,
    });
    expect(me.json().email).toBe(email);
    const stored = await t.database.db.select().from(sessions);
    expect(stored.some((s) => s.tokenHash === cookie.value)).toBe(false);
  });

  it('accepts a code only once', async () => {
    const email = unique('once');
    await sendCode(email);
    const code = t.mailer.lastCodeFor(email);
    expect((await verify(email, code)).statusCode).toBe(200);
    const again = await verify(email, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('OTP_EXPIRED');
  });

  it('refuses a code after 10 minutes', async () => {
    const email = unique('late');
    await sendCode(email);
    const code = t.mailer.lastCodeFor(email);
    t.clock.advance(10 * 60_000 + 1);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OTP_EXPIRED');
  });

  it('retires a code after 5 wrong tries', async () => {
    const email = unique('guess');
    await sendCode(email);
    const code = t.mailer.lastCodeFor(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left -= 1) {
      const res = await verify(email, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'INVALID_OTP',
        message: 'Invalid OTP',
        details: { attemptsLeft: left },
      });
    }
    const fifth = await verify(email, wrong);
    expect(fifth.json().error).toMatchObject({
      code: 'OTP_EXPIRED',
      message: 'Too many wrong codes. Request a new code.',
    });
    expect((await verify(email, code)).statusCode).toBe(400);
  });

  it('a new code retires the previous one', async () => {
    const email = unique('twice');
    await sendCode(email);
    const first = t.mailer.lastCodeFor(email);
    await sendCode(email);
    const second = t.mailer.lastCodeFor(email);
    if (first !== second) expect((await verify(email, first)).statusCode).toBe(400);
    expect((await verify(email, second)).statusCode).toBe(200);
  });

  it('rejects a code that is not 6 digits', async () => {
    const res = await verify(unique('shape'), '12ab56');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.otp).toEqual(['Please enter a valid 6-digit OTP']);
  });

  it('replaces the session the browser held', async () => {
    const { cookie, token } = await t.signIn({ email: unique('fixation') });
    const email = unique('switch');
    await sendCode(email);
    const res = await verify(email, t.mailer.lastCodeFor(email), { cookie });
    const fresh = sessionCookie(res).value;
    expect(fresh).not.toBe(token);
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).statusCode).toBe(
      401,
    );
  });

  it('marks the cookie Secure in production', async () => {
    const prod = await createTestApp({
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://rentgpu.example' },
    });
    try {
      const email = unique('prod');
      await prod.request({ method: 'POST', url: '/api/auth/send-otp', payload: { email } });
      const res = await prod.request({
        method: 'POST',
        url: '/api/auth/verify-otp',
        payload: { email, otp: prod.mailer.lastCodeFor(email) },
      });
      expect(sessionCookie(res)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    } finally {
      await prod.close();
    }
  });
});

describe('demo sign-in, login and logout navigations', () => {
  it('POST /api/login signs into a fresh demo account of the visitor’s own', async () => {
    await seedDemoData(t.database.db, t.app.deps);
    const first = await t.request({ method: 'POST', url: '/api/login' });
    expect(first.statusCode).toBe(200);
    const me = await t.request({
      method: 'GET',
      url: '/api/auth/user',
      cookie: `rentgpu_session=${sessionCookie(first).value}`,
    });
    expect(me.json()).toMatchObject({
      firstName: 'Demo',
      lastName: 'User',
      credits: '100.00',
      isProvider: true,
    });
    expect(me.json().email).not.toBe('demo@rentgpu.dev');
    const second = await t.request({ method: 'POST', url: '/api/login' });
    expect(second.json().user.id).not.toBe(first.json().user.id);
  });

  it('POST /api/login answers 503 on a server without the demo world', async () => {
    const bare = await createTestApp({ env: { SEED_DEMO_DATA: 'false' } });
    try {
      const res = await bare.request({ method: 'POST', url: '/api/login' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('DEMO_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });

  it('GET /api/login leads to the landing sign-in form', async () => {
    const res = await t.request({ method: 'GET', url: '/api/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/#sign-in');
  });

  it('GET /api/logout ends the session and goes back to /', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({ method: 'GET', url: '/api/logout', cookie });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(res.headers['set-cookie']).toMatch(/rentgpu_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).statusCode).toBe(
      401,
    );
  });

  it('a session ends after its lifetime', async () => {
    const { cookie } = await t.signIn();
    t.clock.advance(24 * 60 * 60_000 + 1_000);
    expect((await t.request({ method: 'GET', url: '/api/auth/user', cookie })).statusCode).toBe(
      401,
    );
  });
});

describe('PATCH /api/user/theme', () => {
  it('saves a valid theme and refuses others', async () => {
    const { cookie, userId } = await t.signIn();
    const ok = await t.request({
      method: 'PATCH',
      url: '/api/user/theme',
      payload: { theme: 'pastel' },
      cookie,
    });
    expect(ok.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.theme).toBe('pastel');

    const bad = await t.request({
      method: 'PATCH',
      url: '/api/user/theme',
      payload: { theme: 'neon' },
      cookie,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 401 when signed out', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: '/api/user/theme',
      payload: { theme: 'light' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a cookie-carrying write from another origin', async () => {
    const { cookie } = await t.signIn();
    const patch = (headers: Record<string, string>) =>
      t.request({
        method: 'PATCH',
        url: '/api/user/theme',
        payload: { theme: 'light' },
        cookie,
        headers: { host: 'rentgpu.test', ...headers },
      });

    const evil = await patch({ origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error.code).toBe('CROSS_ORIGIN_REFUSED');
    expect((await patch({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await patch({ origin: 'null' })).statusCode).toBe(403);
    expect(
      (await patch({ origin: 'http://rentgpu.test', 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(200);
  });
});
