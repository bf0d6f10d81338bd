import { describe, expect, it } from 'vitest';
import { OTP_MAX_ATTEMPTS, OTP_TTL_MS } from '../../../shared/constants';
import { clientAddresses, uniqueEmail as unique } from '../../test/addresses';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { AUTH_LIMITS } from '../auth/service';

/** Issue 8 item 1: a new sign-in address only takes effect once its owner proves it. */
let t: TestApp;
/** Each test gets its own client address so per-IP limits do not leak between tests. */
const nextIp = clientAddresses(8);

withTestApp({}, (app) => {
  t = app;
});

const CHANGE_SUBJECT = /^Your RentGPU e-mail change code: (\d{6})$/;
const SIGN_IN_SUBJECT = /^Your RentGPU sign-in code: (\d{6})$/;

/** The newest code of one kind mailed to an address. */
function lastCode(to: string, subject: RegExp): string {
  const mail = [...t.mailer.sent].reverse().find((m) => m.to === to && subject.test(m.subject));
  const code = mail?.subject.match(subject)?.[1];
  if (!code) throw new Error(`no ${subject} mailed to ${to}`);
  return code;
}
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

function patch(userId: string, cookie: string, payload: Record<string, unknown>, ip = nextIp()) {
  return t.request({
    method: 'PATCH',
    url: `/api/users/${userId}`,
    payload,
    cookie,
    remoteAddress: ip,
  });
}
function confirm(userId: string, cookie: string, otp: string) {
  return t.request({
    method: 'POST',
    url: `/api/users/${userId}/email/confirm`,
    payload: { otp },
    cookie,
    remoteAddress: nextIp(),
  });
}
const me = (cookie: string) => t.request({ method: 'GET', url: '/api/auth/user', cookie });

/** The real sign-in code flow: ask for a code, read it from the mail, verify it. */
async function signInWithCode(email: string) {
  const ip = nextIp();
  const sent = await t.request({
    method: 'POST',
    url: '/api/auth/send-otp',
    payload: { email },
    remoteAddress: ip,
  });
  expect(sent.statusCode).toBe(200);
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/verify-otp',
    payload: { email, otp: lastCode(email, SIGN_IN_SUBJECT) },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'rentgpu_session');
  if (!cookie) throw new Error('no session cookie');
  return {
    user: res.json().user as { id: string; email: string },
    cookie: `rentgpu_session=${cookie.value}`,
  };
}

describe('changing the sign-in e-mail address', () => {
  it("asking for someone's future address gives no hold on it: its owner signs in to their own account", async () => {
    const aEmail = unique('alice');
    const bEmail = unique('bob');
    const a = await t.signIn({ email: aEmail, firstName: 'Alice' });

    const asked = await patch(a.userId, a.cookie, { email: bEmail, bio: 'Saved at once.' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({
      email: aEmail,
      pendingEmail: bEmail,
      bio: 'Saved at once.',
    });
    const changeCode = lastCode(bEmail, CHANGE_SUBJECT);
    expect((await me(a.cookie)).json()).toMatchObject({ email: aEmail, pendingEmail: bEmail });

    // The change code is not a sign-in code for that address.
    const misuse = await t.request({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email: bEmail, otp: changeCode },
      remoteAddress: nextIp(),
    });
    expect(misuse.statusCode).toBe(400);

    // Bob signs in with the address: a new account of his own, not Alice's.
    const b = await signInWithCode(bEmail);
    expect(b.user.id).not.toBe(a.userId);
    expect(b.user.email).toBe(bEmail);
    expect((await me(a.cookie)).json()).toMatchObject({ email: aEmail });

    // The address is taken now, so Alice's code cannot move it to her account.
    const late = await confirm(a.userId, a.cookie, changeCode);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({
      code: 'EMAIL_IN_USE',
      message: 'Another account already uses this e-mail address.',
    });
    expect((await me(a.cookie)).json()).toMatchObject({ email: aEmail, pendingEmail: null });
    expect((await me(b.cookie)).json()).toMatchObject({ id: b.user.id, email: bEmail });
  });

  it('the right code switches the address, ends the other sessions, keeps this one and tells the old address', async () => {
    const oldEmail = unique('old');
    const newEmail = unique('new');
    const here = await signInWithCode(oldEmail);
    const elsewhere = await signInWithCode(oldEmail);
    expect(elsewhere.user.id).toBe(here.user.id);
    const userId = here.user.id;

    await patch(userId, here.cookie, { email: newEmail });
    expect(t.mailer.sent.some((m) => m.to === oldEmail && /changed/.test(m.subject))).toBe(false);
    const res = await confirm(userId, here.cookie, lastCode(newEmail, CHANGE_SUBJECT));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: newEmail, pendingEmail: null });

    expect((await me(here.cookie)).statusCode).toBe(200);
    expect((await me(elsewhere.cookie)).statusCode).toBe(401);
    const notice = t.mailer.sent.find((m) => m.to === oldEmail && /changed/.test(m.subject));
    expect(notice?.subject).toBe('Your RentGPU e-mail address was changed');
    expect(notice?.text).toContain(newEmail);

    // Sign-in codes for the new address now reach this account; the code was single use.
    expect((await signInWithCode(newEmail)).user.id).toBe(userId);
    const again = await confirm(userId, here.cookie, lastCode(newEmail, CHANGE_SUBJECT));
    expect(again.statusCode).toBe(409);
  });

  it(`${OTP_MAX_ATTEMPTS} wrong codes retire the code`, async () => {
    const email = unique('keep');
    const { userId, cookie } = await t.signIn({ email });
    const target = unique('target');
    await patch(userId, cookie, { email: target });
    const code = lastCode(target, CHANGE_SUBJECT);
    for (let left = OTP_MAX_ATTEMPTS - 1; left > 0; left -= 1) {
      const res = await confirm(userId, cookie, wrong(code));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'INVALID_OTP',
        details: { attemptsLeft: left },
      });
    }
    const last = await confirm(userId, cookie, wrong(code));
    expect(last.json().error).toMatchObject({ code: 'OTP_EXPIRED', details: { attemptsLeft: 0 } });
    const right = await confirm(userId, cookie, code);
    expect(right.statusCode).toBe(400);
    expect(right.json().error.code).toBe('OTP_EXPIRED');
    expect((await me(cookie)).json()).toMatchObject({ email, pendingEmail: target });
  });

  it('refuses an expired code; asking again for the pending address sends a new one', async () => {
    const email = unique('slow');
    const { userId, cookie } = await t.signIn({ email });
    const target = unique('later');
    await patch(userId, cookie, { email: target });
    const code = lastCode(target, CHANGE_SUBJECT);
    t.clock.advance(OTP_TTL_MS + 1_000);
    const res = await confirm(userId, cookie, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'OTP_EXPIRED',
      message: 'This code has expired or was already used. Request a new code.',
    });
    expect((await me(cookie)).json()).toMatchObject({ email, pendingEmail: target });

    await patch(userId, cookie, { email: target });
    const fresh = lastCode(target, CHANGE_SUBJECT);
    expect((await confirm(userId, cookie, fresh)).json()).toMatchObject({ email: target });
  });

  it('a new request retires the code sent to an earlier address', async () => {
    const { userId, cookie } = await t.signIn();
    const first = unique('first');
    const second = unique('second');
    await patch(userId, cookie, { email: first });
    const firstCode = lastCode(first, CHANGE_SUBJECT);
    await patch(userId, cookie, { email: second });
    const res = await confirm(userId, cookie, firstCode);
    expect(res.statusCode).toBe(400);
    expect((await me(cookie)).json()).toMatchObject({ pendingEmail: second });
  });

  it('cancel drops the pending address and its code', async () => {
    const email = unique('stay');
    const { userId, cookie } = await t.signIn({ email });
    const target = unique('never');
    await patch(userId, cookie, { email: target });
    const code = lastCode(target, CHANGE_SUBJECT);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/users/${userId}/email/pending`,
      cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, pendingEmail: null });
    const late = await confirm(userId, cookie, code);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(
      'There is no new e-mail address waiting for confirmation.',
    );
    expect((await me(cookie)).json()).toMatchObject({ email });
  });

  it('limits how many codes one user may ask for, and a refused request changes nothing', async () => {
    const { userId, cookie } = await t.signIn({ firstName: 'Before' });
    const ip = nextIp();
    for (let i = 0; i < AUTH_LIMITS.sendPerUser.limit; i += 1) {
      expect((await patch(userId, cookie, { email: unique(`try${i}`) }, ip)).statusCode).toBe(200);
    }
    const refused = await patch(userId, cookie, { email: unique('over'), firstName: 'After' }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await me(cookie)).json().firstName).toBe('Before');
  });

  it('refuses a malformed code with 400 and a signed-out confirm with 401', async () => {
    const { userId, cookie } = await t.signIn();
    const bad = await confirm(userId, cookie, '12ab');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    const out = await t.request({
      method: 'POST',
      url: `/api/users/${userId}/email/confirm`,
      payload: { otp: '123456' },
    });
    expect(out.statusCode).toBe(401);
  });
});
