import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../../shared/contracts/openapi-types';
import { createTestApp, type TestApp } from '../../test/app';
import { world } from '../../test/world';
import { apiTypesText, documentText } from './document';
import { isPublicApiRoute } from './openapi';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const committed = (file: string) => readFileSync(path.join(root, file), 'utf8');

const v1Routes: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    onRoute: (route) => {
      if (route.url.startsWith('/api/v1') && route.method !== 'HEAD') {
        v1Routes.push(`${String(route.method).toLowerCase()} ${route.url}`);
      }
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('the OpenAPI document', () => {
  it('docs/openapi.json and shared/contracts/openapi-types.ts are current (run `npm run openapi`)', async () => {
    const document = documentText(t.app);
    expect(committed('docs/openapi.json')).toBe(document);
    expect(committed('shared/contracts/openapi-types.ts')).toBe(await apiTypesText(document));
  });

  it('is served at GET /api/v1/openapi.json without a key', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(committed('docs/openapi.json')));
    expect(res.headers['ratelimit-policy']).toBe('"anonymous";q=1000;w=3600');
  });

  it('is valid OpenAPI 3.1 for an independent validator', async () => {
    const document = JSON.parse(committed('docs/openapi.json'));
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds every public API route and the tiers, and leaves out the agent protocol', () => {
    const document = JSON.parse(committed('docs/openapi.json'));
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(
      ([p, ops]) => Object.keys(ops).map((m) => `${m} /api/v1${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const expected = v1Routes
      .filter((r) => isPublicApiRoute(r.split(' ')[1] ?? ''))
      .filter((r) => !r.endsWith('/openapi.json'));
    expect(expected.length).toBeGreaterThan(15);
    expect(documented.sort()).toEqual(expected.sort());
    expect(v1Routes.some((r) => r.includes('/api/v1/agents'))).toBe(true);
    expect(JSON.stringify(document.paths)).not.toContain('agents');
    expect(document.info.description).toContain('| Standard | 1,000 |');
    expect(document.info.description).toContain('| Pro | 5,000 |');
    expect(document.info.description).toContain('| Enterprise | 25,000 |');
    expect(document['x-rate-limit-tiers']).toEqual({
      windowSeconds: 3600,
      tiers: [
        { tier: 'standard', name: 'Standard', requestsPerHour: 1000 },
        { tier: 'pro', name: 'Pro', requestsPerHour: 5000 },
        { tier: 'enterprise', name: 'Enterprise', requestsPerHour: 25000 },
      ],
    });
    // Each operation names the key permission it needs as its security requirement's role.
    const operations = Object.values(document.paths as Record<string, object>).flatMap(
      (ops) => Object.values(ops) as { operationId: string; security?: unknown }[],
    );
    const roles = Object.fromEntries(operations.map((op) => [op.operationId, op.security]));
    expect(roles.listGpus).toEqual([{ apiKey: ['read'] }]);
    expect(roles.createInstance).toEqual([{ apiKey: ['write'] }]);
    expect(roles.revokeApiKey).toEqual([{ apiKey: ['admin'] }]);
    for (const op of operations) {
      expect(op.security, op.operationId).toEqual([
        { apiKey: [expect.stringMatching(/^(read|write|admin)$/)] },
      ]);
    }
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('a client generated from it (openapi-typescript + openapi-fetch) rents, reads and stops', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    expect(address).toContain(String(port));
    const user = await t.signIn({ credits: '50.00' });
    const listing = await world(t).listing({ hourlyRate: '2.00' });
    const { key } = (
      await t.request({
        method: 'POST',
        url: '/api/auth/api-keys',
        cookie: user.cookie,
        payload: { name: 'client', permissions: ['read', 'write'] },
      })
    ).json();
    const client = createClient<paths>({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      headers: { authorization: `Bearer ${key}` },
    });

    const gpus = await client.GET('/gpu-listings', { params: { query: { limit: 100 } } });
    expect(gpus.response.status).toBe(200);
    expect(gpus.data?.gpus.some((g) => g.id === listing.id)).toBe(true);

    const rented = await client.POST('/instances', {
      body: { gpuListingId: listing.id, durationHours: 2 },
      headers: { 'idempotency-key': 'rent-1' },
    });
    expect(rented.response.status).toBe(201);
    const id = rented.data?.instance.id ?? 0;
    expect(rented.data?.instance.status).toBe('provisioning');

    const status = await client.GET('/instances/{id}', { params: { path: { id } } });
    expect(status.data?.instance).toMatchObject({ id, billingPlan: 'booked', durationHours: 2 });

    const stopped = await client.PATCH('/instances/{id}/stop', { params: { path: { id } } });
    expect(stopped.response.status).toBe(200);
    expect(['terminating', 'terminated']).toContain(stopped.data?.instance.status);

    const missing = await client.GET('/instances/{id}', { params: { path: { id: 999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('NOT_FOUND');
  });
});
