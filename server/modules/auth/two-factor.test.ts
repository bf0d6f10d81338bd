import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { clientAddresses, uniqueEmail as unique } from '../../test/addresses';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';

let t: TestApp;
const nextIp = clientAddresses(9);

withTestApp({}, (app) => {
  t = app;
});

/** The code an authenticator app shows for the secret, on the server's clock. */
function appCode(secret: string, offsetSteps = 0) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30 });
  return totp.generate({ timestamp: t.clock.now().getTime() + offsetSteps * 30_000 });
}

const post = (url: string, cookie: string | undefined, payload?: object) =>
  t.request({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    ...(cookie ? { cookie } : {}),
    ...(payload ? { payload } : {}),
  });

/** Signs in, sets up and enables two-factor; answers the secret and the recovery codes. */
async function enabledUser() {
  const email = unique('tfa');
  const { userId, cookie } = await t.signIn({ email });
  const setup = await post('/api/auth/two-factor/setup', cookie);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const enable = await post('/api/auth/two-factor/enable', cookie, { code: appCode(secret) });
  expect(enable.statusCode).toBe(200);
  // The next step, so the enabling code's step is behind us.
  t.clock.advance(30_000);
  return { email, userId, cookie, secret, recoveryCodes: enable.json().recoveryCodes as string[] };
}

/** The e-mail step of a sign-in; answers verify-otp's response. */
async function emailStep(email: string) {
  const ip = nextIp();
  await t.request({
    method: 'POST',
    url: '/api/auth/send-otp',
    payload: { email },
    remoteAddress: ip,
  });
  return t.request({
    method: 'POST',
    url: '/api/auth/verify-otp',
    payload: { email, otp: t.mailer.lastCodeFor(email) },
    remoteAddress: ip,
  });
}

const secondStep = (challenge: string, code: string) =>
  post('/api/auth/verify-two-factor', undefined, { challenge, code });

describe('two-factor setup', () => {
  it('shows a QR code and key once, enables with an app code and reports it in the settings', async () => {
    const { userId, cookie } = await t.signIn();
    const setup = await post('/api/auth/two-factor/setup', cookie);
    expect(setup.statusCode).toBe(200);
    const body = setup.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUrl).toContain(`secret=${body.secret}`);
    expect(body.otpauthUrl).toContain('issuer=RentGPU');
    expect(body.qrSvg).toMatch(/^<svg/);

    const wrong = await post('/api/auth/two-factor/enable', cookie, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    const enable = await post('/api/auth/two-factor/enable', cookie, {
      code: appCode(body.secret),
    });
    expect(enable.statusCode).toBe(200);
    const codes = enable.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const settings = await t.request({
      method: 'GET',
      url: `/api/users/${userId}/settings`,
      cookie,
    });
    expect(settings.json().security.twoFactorEnabled).toBe(true);
    expect(JSON.stringify(settings.json())).not.toContain(body.secret);
    // A second setup cannot replace the secret in force.
    expect((await post('/api/auth/two-factor/setup', cookie)).statusCode).toBe(409);
    // Nor can the settings save turn it off.
    const saved = {
      ...settings.json(),
      security: { ...settings.json().security, twoFactorEnabled: false },
    };
    const put = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}/settings`,
      cookie,
      payload: saved,
    });
    expect(put.statusCode).toBe(400);
  });

  it('refuses a Demo Login account with a clear 403', async () => {
    const { cookie } = await t.signIn({ isDemo: true });
    const res = await post('/api/auth/two-factor/setup', cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(/demo account cannot turn on two-factor/i);
  });

  it('needs a session', async () => {
    expect((await post('/api/auth/two-factor/setup', undefined)).statusCode).toBe(401);
  });
});

describe('sign-in with two-factor on', () => {
  it('issues no session after the e-mail code, only after the app code', async () => {
    const { email, secret } = await enabledUser();
    const first = await emailStep(email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ twoFactorRequired: true });
    expect(first.cookies.find((c) => c.name === 'rentgpu_session')).toBeUndefined();

    const { challenge } = first.json();
    expect((await secondStep(challenge, '123456')).statusCode).toBe(400);
    const ok = await secondStep(challenge, appCode(secret));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(email);
    const cookie = ok.cookies.find((c) => c.name === 'rentgpu_session');
    expect(cookie).toBeDefined();
    const me = await t.request({
      method: 'GET',
      url: '/api/auth/user',
      cookie: `rentgpu_session=${cookie?.value}`,
    });
    expect(me.statusCode).toBe(200);
    // The challenge is used up.
    t.clock.advance(30_000);
    expect((await secondStep(challenge, appCode(secret))).statusCode).toBe(400);
  });

  it('refuses a code used once already (replay) within its window', async () => {
    const { email, secret } = await enabledUser();
    const code = appCode(secret);
    const a = (await emailStep(email)).json().challenge;
    expect((await secondStep(a, code)).statusCode).toBe(200);
    const b = (await emailStep(email)).json().challenge;
    const replay = await secondStep(b, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/already used/);
    // An earlier step's code is refused too, a later one accepted.
    expect((await secondStep(b, appCode(secret, -1))).statusCode).toBe(400);
    t.clock.advance(30_000);
    expect((await secondStep(b, appCode(secret))).statusCode).toBe(200);
  });

  it('accepts a recovery code once only', async () => {
    const { email, recoveryCodes } = await enabledUser();
    const code = recoveryCodes[0] ?? '';
    const a = (await emailStep(email)).json().challenge;
    expect((await secondStep(a, code.toUpperCase())).statusCode).toBe(200);
    const b = (await emailStep(email)).json().challenge;
    expect((await secondStep(b, code)).statusCode).toBe(400);
    expect((await secondStep(b, recoveryCodes[1] ?? '')).statusCode).toBe(200);
  });

  it('retires the challenge after five wrong codes', async () => {
    const { email, secret } = await enabledUser();
    const challenge = (await emailStep(email)).json().challenge;
    for (let i = 0; i < 4; i++) {
      const res = await secondStep(challenge, 'aaaa-bbbb-cccc');
      expect(res.json().error.details.attemptsLeft).toBe(4 - i);
    }
    const fifth = await secondStep(challenge, '999999');
    expect(fifth.json().error.code).toBe('OTP_EXPIRED');
    expect((await secondStep(challenge, appCode(secret))).statusCode).toBe(400);
  });

  it('expires the challenge after five minutes', async () => {
    const { email, secret } = await enabledUser();
    const challenge = (await emailStep(email)).json().challenge;
    t.clock.advance(5 * 60_000 + 1);
    const res = await secondStep(challenge, appCode(secret));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OTP_EXPIRED');
  });

  it('is not asked of an account without it', async () => {
    const email = unique('plain');
    await t.signIn({ email });
    const res = await emailStep(email);
    expect(res.json().user.email).toBe(email);
  });
});

describe('turning two-factor off', () => {
  it('needs a right code, then sign-in asks for the e-mail code only', async () => {
    const { email, userId, cookie, secret } = await enabledUser();
    expect(
      (await post('/api/auth/two-factor/disable', cookie, { code: '000000' })).statusCode,
    ).toBe(400);
    const off = await post('/api/auth/two-factor/disable', cookie, { code: appCode(secret) });
    expect(off.statusCode).toBe(204);
    const settings = await t.request({
      method: 'GET',
      url: `/api/users/${userId}/settings`,
      cookie,
    });
    expect(settings.json().security.twoFactorEnabled).toBe(false);
    expect((await emailStep(email)).json().user.email).toBe(email);
    expect(
      (await post('/api/auth/two-factor/disable', cookie, { code: appCode(secret) })).statusCode,
    ).toBe(409);
  });
});
