import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../env';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';

/** The load balancer's probes: readiness (/api/health) and liveness (/api/health/live). */

let t: TestApp;
withTestApp({}, (app) => {
  t = app;
});

describe('readiness and liveness', () => {
  it('readiness turns off when the process drains; liveness and every other route go on', async () => {
    const ready = await t.request({ method: 'GET', url: '/api/health' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', database: { ok: true } });
    expect(ready.headers.connection).not.toBe('close');
    const live = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'ok' });

    t.app.deps.health.startDraining();

    const draining = await t.request({ method: 'GET', url: '/api/health' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ status: 'draining', database: { ok: true } });
    expect(draining.headers['cache-control']).toBe('no-store');
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    // Still serving, each answer closing its connection (the next one goes elsewhere).
    const listings = await t.request({ method: 'GET', url: '/api/gpu-listings' });
    expect(listings.statusCode).toBe(200);
    expect(listings.headers.connection).toBe('close');
  });
});

describe('SHUTDOWN_GRACE_MS', () => {
  it('is 5 s in production and 0 elsewhere unless set; a bad value names the variable', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://rentgpu.example' };
    expect(parseEnv(production).SHUTDOWN_GRACE_MS).toBe(5000);
    expect(parseEnv({}).SHUTDOWN_GRACE_MS).toBe(0);
    expect(parseEnv({ ...production, SHUTDOWN_GRACE_MS: '0' }).SHUTDOWN_GRACE_MS).toBe(0);
    expect(parseEnv({ SHUTDOWN_GRACE_MS: '15000' }).SHUTDOWN_GRACE_MS).toBe(15_000);
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: '-1' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
