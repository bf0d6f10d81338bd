import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app';

/**
 * Every /api route declares its schemas (docs/architecture.md, "How a route declares its
 * schemas"): a response for its success status and for errors, and params when its path has
 * any. Access checks still come before the input is checked.
 */
const routes: RouteOptions[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { PAYPAL_LOCAL_SANDBOX: 'true' },
    onRoute: (route) => {
      if (route.url.startsWith('/api') && route.method !== 'HEAD') routes.push(route);
    },
  });
});
afterAll(() => t.close());

describe('route schemas', () => {
  it('every /api route declares its responses, and params when its path has any', () => {
    expect(routes.length).toBeGreaterThan(30);
    const missing: string[] = [];
    for (const route of routes) {
      const name = `${String(route.method)} ${route.url}`;
      const response = (route.schema?.response ?? {}) as Record<string, unknown>;
      const statuses = Object.keys(response);
      if (!statuses.some((s) => /^[23]\d\d$/.test(s))) missing.push(`${name}: success response`);
      if (!statuses.includes('4xx')) missing.push(`${name}: 4xx response`);
      if (route.url.includes(':') && !route.schema?.params) missing.push(`${name}: params`);
    }
    expect(missing).toEqual([]);
  });

  it('a declared body is checked after the session: signed out is 401, whatever the body', async () => {
    const res = await t.request({ method: 'POST', url: '/api/rentals', payload: { bad: true } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it("another user's id is 403 before the body is checked", async () => {
    const me = await t.signIn();
    const other = await t.signIn();
    const res = await t.request({
      method: 'PATCH',
      url: `/api/users/${other.userId}`,
      cookie: me.cookie,
      payload: { website: 'not a url' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('a declared body that fails answers the app’s VALIDATION_FAILED body', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({ method: 'POST', url: '/api/ssh-keys', cookie, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'name: Invalid input: expected string, received undefined',
        details: {
          fields: {
            name: ['Invalid input: expected string, received undefined'],
            publicKey: ['Invalid input: expected string, received undefined'],
          },
        },
      },
    });
  });
});
