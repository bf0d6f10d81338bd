import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The demo account Demo Login signs into.
  await t.signIn({ email: 'demo@rentgpu.dev', isDemo: true });
});
afterAll(async () => {
  await t.close();
});

const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const REFUSED = {
  error: {
    code: 'CROSS_ORIGIN_REFUSED',
    message: 'Requests that change data must come from this site.',
    details: {},
  },
};

async function signedIn(cookie: string): Promise<boolean> {
  const res = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
  return res.statusCode === 200;
}

describe('sign-in cannot be forced from another site', () => {
  it.each([
    ['POST /api/login', '/api/login', {}],
    ['POST /api/auth/send-otp', '/api/auth/send-otp', { email: 'victim@example.com' }],
    [
      'POST /api/auth/verify-otp',
      '/api/auth/verify-otp',
      { email: 'attacker@example.com', otp: '123456' },
    ],
  ])('%s without a session cookie is refused cross-site, no cookie set', async (_n, url, body) => {
    for (const headers of [
      CROSS_SITE,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      const res = await t.request({ method: 'POST', url, payload: body, headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(REFUSED);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(t.mailer.sent.filter((m) => m.to === 'victim@example.com')).toEqual([]);
  });

  it('Demo Login from this site (or from a client that is not a browser) still signs in', async () => {
    for (const headers of [
      { origin: 'http://localhost:5000', host: 'localhost:5000', 'sec-fetch-site': 'same-origin' },
      {},
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/login', headers });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'rentgpu_session')).toBeDefined();
    }
  });

  it('other signed-out writes are not affected (the newsletter form works from any page)', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email: 'reader@example.com' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/logout', () => {
  it('from another site it goes home without ending the session', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({
      method: 'GET',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
      cookie,
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await signedIn(cookie)).toBe(true);
  });

  it('from this site, or typed in the address bar, it signs out', async () => {
    for (const site of ['same-origin', 'none']) {
      const { cookie } = await t.signIn();
      const res = await t.request({
        method: 'GET',
        url: '/api/logout',
        headers: { 'sec-fetch-site': site },
        cookie,
      });
      expect(res.statusCode).toBe(302);
      expect(String(res.headers['set-cookie'])).toContain('rentgpu_session=;');
      expect(await signedIn(cookie)).toBe(false);
    }
  });
});

describe('the Origin of a cookie write or a console WebSocket is compared whole', () => {
  const HOST = 'rentgpu.test';
  const write = (cookie: string, headers: Record<string, string>) =>
    t.request({
      method: 'POST',
      url: '/api/ssh-keys',
      payload: { name: '', publicKey: '' },
      headers: { host: HOST, ...headers },
      cookie,
    });
  const consoleUpgrade = (cookie: string, headers: Record<string, string>) =>
    t.request({
      method: 'GET',
      url: '/api/kvm/instances/999999999/console',
      headers: {
        host: HOST,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
      cookie,
    });

  it.each([
    ['an https page on the http site', { origin: `https://${HOST}` }],
    ['another port', { origin: `http://${HOST}:8080` }],
    ['another host', { origin: 'http://rentgpu.test.evil.example' }],
    [
      'an http page when a proxy says the site is https',
      {
        origin: `http://${HOST}`,
        'x-forwarded-proto': 'https',
      },
    ],
    ['a non-web scheme', { origin: `ftp://${HOST}` }],
  ])('%s is refused (write and console)', async (_name, headers) => {
    const { cookie } = await t.signIn();
    for (const res of [await write(cookie, headers), await consoleUpgrade(cookie, headers)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(REFUSED);
    }
  });

  it.each([
    ['the same origin', { origin: `http://${HOST}` }],
    ['the same origin with its default port', { origin: `http://${HOST}:80` }],
    [
      'https behind a TLS-terminating proxy',
      {
        origin: `https://${HOST}`,
        'x-forwarded-proto': 'https',
      },
    ],
  ])('%s is accepted', async (_name, headers) => {
    const { cookie } = await t.signIn();
    // Past the origin check: the write's empty body is refused, the instance is not found.
    expect((await write(cookie, headers)).statusCode).toBe(400);
    expect((await consoleUpgrade(cookie, headers)).statusCode).toBe(404);
  });
});
