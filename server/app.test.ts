import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv, publicUrlOf } from './env';
import { createTestApp, postRaw, type TestApp } from './test/app';

/** Production needs its public address (PUBLIC_URL); every production case here gives one. */
const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://rentgpu.example' } as const;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) =>
      app.get('/api/test/boom', async () => {
        throw new Error('secret connection string postgres://u:p@db');
      }),
  });
});
afterAll(async () => {
  await t.close();
});

describe('the app', () => {
  it('answers unknown /api paths with 404 in the error body', async () => {
    const res = await t.request({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'API route not found.', details: {} },
    });
  });

  it('hides the cause of a 500', async () => {
    const res = await t.request({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('postgres://');
    expect(res.json()).toEqual({
      error: {
        code: 'INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
        details: {},
      },
    });
  });

  it('reports the database in /api/health', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { ok: true } });
  });

  it('sends security headers and a request id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a request id the client sent', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('replaces a client request id that is too long or holds other characters', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const longest = `req:1.a_B-${'x'.repeat(118)}`;
    const kept = await t.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': longest },
    });
    expect(kept.headers['x-request-id']).toBe(longest);
    for (const sent of ['x'.repeat(129), 'x'.repeat(8000), 'a b', 'a"b', '<script>', 'é', '']) {
      const res = await t.request({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': sent },
      });
      expect(res.headers['x-request-id']).toMatch(uuid);
    }
  });
});

describe('configuration', () => {
  it('applies defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 5000,
      NODE_ENV: 'development',
      PAYPAL_API_BASE: 'https://api-m.sandbox.paypal.com',
    });
    expect(env.DATA_DIR).toMatch(/\/data$/);
  });

  it('listens on loopback only outside production unless HOST says otherwise', () => {
    expect(parseEnv({}).HOST).toBe('127.0.0.1');
    expect(parseEnv({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(parseEnv(PRODUCTION).HOST).toBe('0.0.0.0');
    expect(parseEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(parseEnv({ ...PRODUCTION, HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('needs an https PUBLIC_URL in production; elsewhere it is the listen address', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(
      /PUBLIC_URL: required in production/,
    );
    expect(() =>
      parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'http://rentgpu.example' }),
    ).toThrow(/PUBLIC_URL: must start with https:\/\/ in production/);
    for (const bad of [
      'rentgpu.example',
      'ftp://rentgpu.example',
      'https://x.example/app',
      'https://x.example/?a=1',
    ]) {
      expect(() => parseEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
    const prod = parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://rentgpu.example/' });
    expect(prod.PUBLIC_URL).toBe('https://rentgpu.example');
    expect(publicUrlOf(prod, 8080)).toBe('https://rentgpu.example');
    expect(publicUrlOf(parseEnv({}), 5000)).toBe('http://localhost:5000');
    expect(publicUrlOf(parseEnv({ HOST: '0.0.0.0' }), 4321)).toBe('http://localhost:4321');
    expect(publicUrlOf(parseEnv({ HOST: '10.0.0.5' }), 5000)).toBe('http://10.0.0.5:5000');
    expect(publicUrlOf(parseEnv({ PUBLIC_URL: 'http://gpu.lan:5000' }), 1)).toBe(
      'http://gpu.lan:5000',
    );
  });

  it('uses the live PayPal API in production', () => {
    expect(parseEnv(PRODUCTION).PAYPAL_API_BASE).toBe('https://api-m.paypal.com');
  });

  it('derives PAYPAL_MODE: live, sandbox API, local sandbox outside production, else off', () => {
    const keys = { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' };
    expect(parseEnv({ ...PRODUCTION, ...keys }).PAYPAL_MODE).toBe('live');
    expect(parseEnv({ ...keys }).PAYPAL_MODE).toBe('sandbox-api');
    expect(parseEnv({ ...keys, PAYPAL_API_BASE: 'http://127.0.0.1:9' }).PAYPAL_MODE).toBe(
      'sandbox-api',
    );
    expect(parseEnv({}).PAYPAL_MODE).toBe('local-sandbox');
    expect(parseEnv({ NODE_ENV: 'test', PAYPAL_CLIENT_ID: 'id' }).PAYPAL_MODE).toBe(
      'local-sandbox',
    );
    expect(parseEnv({ PAYPAL_LOCAL_SANDBOX: 'false' }).PAYPAL_MODE).toBe('off');
    expect(parseEnv(PRODUCTION).PAYPAL_MODE).toBe('off');
    expect(() => parseEnv({ ...PRODUCTION, PAYPAL_LOCAL_SANDBOX: 'true' })).toThrow(
      /PAYPAL_LOCAL_SANDBOX: the local PayPal sandbox is never offered in production/,
    );
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    // Text that is no URL at all is a configuration error too, not a TypeError.
    expect(() => parseEnv({ DATABASE_URL: 'not a url' })).toThrow(ConfigError);
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'staging' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('NODE_ENV');
    }
  });
});

describe('request bodies', () => {
  it('treats an empty JSON body as no body', async () => {
    const res = await postRaw(t, '/api/auth/send-otp', '');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses prototype poisoning', async () => {
    const res = await postRaw(
      t,
      '/api/auth/send-otp',
      '{"email":"a@b.co","__proto__":{"admin":true}}',
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('the built web app', () => {
  const script = 'console.log("the app");'.repeat(100);
  const page = '<!doctype html><title>RentGPU</title>';
  let webDir: string;
  let web: TestApp;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    // What the build writes (scripts/precompress.mjs): each text file with its .br and .gz.
    for (const [name, body] of [
      ['assets/app-1a2b.js', script],
      ['index.html', page],
    ] as const) {
      writeFileSync(path.join(webDir, name), body);
      writeFileSync(path.join(webDir, `${name}.br`), brotliCompressSync(body));
      writeFileSync(path.join(webDir, `${name}.gz`), gzipSync(body));
    }
    writeFileSync(path.join(webDir, 'assets/small-3c4d.js'), 'export {};');
    web = await createTestApp({ webDir });
  });
  afterAll(async () => {
    await web.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    web.request({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends the Brotli copy to a browser that accepts it, cached for a year', async () => {
    const res = await get('/assets/app-1a2b.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy where Brotli is not accepted, the file itself where neither is', async () => {
    const gzip = await get('/assets/app-1a2b.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/app-1a2b.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends a file without copies as it is', async () => {
    const res = await get('/assets/small-3c4d.js', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};');
  });

  it('sends index.html, compressed, for a page path and revalidates it on every use', async () => {
    const res = await get('/marketplace', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(page);
  });
});
