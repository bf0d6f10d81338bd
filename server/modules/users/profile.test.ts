import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { type World, withTestApp } from '../../test/suite';
import { world } from '../../test/world';

let t: TestApp;
let w: World;
withTestApp({}, (app) => {
  t = app;
  w = world(t);
});

const patch = (userId: string, cookie: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: `/api/users/${userId}`, payload, cookie });

describe('GET and PATCH /api/users/:userId', () => {
  it('reads the profile with the balance and provider flag', async () => {
    const { userId, cookie } = await t.signIn({
      firstName: 'Ada',
      lastName: 'Byron',
      credits: '3.50',
    });
    const res = await t.request({ method: 'GET', url: `/api/users/${userId}`, cookie });
    expect(res.json()).toMatchObject({
      id: userId,
      firstName: 'Ada',
      lastName: 'Byron',
      phone: null,
      bio: null,
      credits: '3.50',
      isProvider: false,
    });
  });

  it('saves every profile field and the current user reads the change; a new e-mail waits for its code', async () => {
    const { userId, cookie } = await t.signIn({ email: 'grace-before@example.test' });
    const email = `new-${Date.now()}@Example.test`;
    const res = await patch(userId, cookie, {
      firstName: ' Grace ',
      lastName: 'Hopper',
      email,
      phone: '+1 (555) 010-9999',
      location: 'Arlington, VA',
      bio: 'Compilers.',
      company: 'US Navy',
      website: 'https://example.com/grace',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Grace',
      email: 'grace-before@example.test',
      pendingEmail: email.toLowerCase(),
      phone: '+1 (555) 010-9999',
      website: 'https://example.com/grace',
    });
    const current = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
    expect(current.json()).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace-before@example.test',
      pendingEmail: email.toLowerCase(),
    });
  });

  it('clears a field sent empty and leaves fields not sent alone', async () => {
    const { userId, cookie } = await t.signIn({ firstName: 'Keep', lastName: 'Me' });
    await patch(userId, cookie, { bio: 'Something', company: 'ACME' });
    const res = await patch(userId, cookie, { bio: '   ' });
    expect(res.json()).toMatchObject({ firstName: 'Keep', bio: null, company: 'ACME' });
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ firstName: 'x'.repeat(51) }, 'firstName'],
    [{ lastName: 'x'.repeat(51) }, 'lastName'],
    [{ bio: 'x'.repeat(501) }, 'bio'],
    [{ location: 'x'.repeat(101) }, 'location'],
    [{ company: 'x'.repeat(101) }, 'company'],
    [{ website: 'example.com' }, 'website'],
    [{ website: 'javascript:alert(1)' }, 'website'],
    [{ website: `https://example.com/${'x'.repeat(200)}` }, 'website'],
    [{ phone: 'call me maybe' }, 'phone'],
    [{ firstName: 42 }, 'firstName'],
  ])('refuses %j with 400 on %s', async (payload, field) => {
    const { userId, cookie } = await t.signIn();
    const res = await patch(userId, cookie, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.json().error.details.fields)).toEqual([field]);
  });

  it("refuses another account's e-mail with 409 and changes nothing", async () => {
    await t.signIn({ email: 'taken@example.test' });
    const { userId, cookie } = await t.signIn({ firstName: 'Before' });
    const res = await patch(userId, cookie, { firstName: 'After', email: 'TAKEN@example.test' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'EMAIL_IN_USE' });
    const after = await t.request({ method: 'GET', url: `/api/users/${userId}`, cookie });
    expect(after.json().firstName).toBe('Before');
  });

  it('keeps its own e-mail when it is sent again', async () => {
    const { userId, cookie } = await t.signIn({ email: 'same@example.test' });
    expect((await patch(userId, cookie, { email: 'same@example.test' })).statusCode).toBe(200);
  });
});

describe('GET /api/providers/user/:userId', () => {
  it("gives the caller's own provider profile, 404 without one", async () => {
    const provider = await w.provider();
    const res = await t.request({
      method: 'GET',
      url: `/api/providers/user/${provider.userId}`,
      cookie: provider.cookie,
    });
    expect(res.json()).toMatchObject({
      id: provider.providerId,
      isVerified: true,
      reputation: '4.5',
    });
    const renter = await t.signIn();
    const none = await t.request({
      method: 'GET',
      url: `/api/providers/user/${renter.userId}`,
      cookie: renter.cookie,
    });
    expect(none.statusCode).toBe(404);
  });
});
