import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, postRaw, type TestApp } from '../test/app';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await t.close();
});

/** Writes raw bytes on a socket and reads the whole answer (the server closes it). */
function rawRequest(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
    socket.write(bytes);
  });
}

function expectErrorBody(body: unknown, code: string) {
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
  const details = (body as { error: { details: unknown } }).error.details;
  expect(details).toBeTypeOf('object');
  expect(details).not.toBeNull();
}

describe("Fastify's own errors answer in the error body", () => {
  it('a bad % escape in the URL: 400 INVALID_URL', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({ method: 'GET', url: '/api/users/%zz', cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'INVALID_URL', message: 'The address is not a valid URL.', details: {} },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a path parameter longer than maxParamLength: 414 URI_TOO_LONG', async () => {
    const res = await t.request({ method: 'GET', url: `/api/users/${'a'.repeat(300)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({
      error: { code: 'URI_TOO_LONG', message: 'The address is too long.', details: {} },
    });
  });

  it('a URL beyond the HTTP header limit: 431 HEADERS_TOO_LARGE', async () => {
    const res = await rawRequest(
      `GET /api/health?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers).toContain('cache-control: no-store');
    expectErrorBody(JSON.parse(res.body), 'HEADERS_TOO_LARGE');
  });

  it('malformed HTTP framing: 400 BAD_REQUEST', async () => {
    const res = await rawRequest(
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expectErrorBody(JSON.parse(res.body), 'BAD_REQUEST');
    const garbage = await rawRequest('HELLO THERE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expectErrorBody(JSON.parse(garbage.body), 'BAD_REQUEST');
  });

  it('a body over the limit: 413 PAYLOAD_TOO_LARGE with the limit', async () => {
    const res = await postRaw(
      t,
      '/api/contact',
      JSON.stringify({ message: 'x'.repeat(1_100_000) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is too large.',
        details: { limitBytes: 1024 * 1024 },
      },
    });
  });

  it('another content type: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await postRaw(t, '/api/contact', 'name=x', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json.',
        details: { accepted: ['application/json'] },
      },
    });
  });

  it.each([
    '{"name":',
    "{'name':1}",
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
  ])('malformed or poisoned JSON %s: 400 BAD_REQUEST', async (payload) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/contact',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: 'The request body is not valid JSON.', details: {} },
    });
  });

  it('a body shorter than its Content-Length: 400 in the error body', async () => {
    const res = await rawRequest(
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 5\r\nConnection: close\r\n\r\n{"a":1}',
    );
    expect(res.status).toBe(400);
    expectErrorBody(JSON.parse(res.body), 'BAD_REQUEST');
  });

  it('an unknown route or method: 404 NOT_FOUND with empty details', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/health' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'API route not found.', details: {} },
    });
  });
});

describe('Cache-Control on /api answers', () => {
  it('private answers, errors and the health probe are no-store', async () => {
    const { cookie } = await t.signIn();
    for (const res of [
      await t.request({ method: 'GET', url: '/api/auth/user', cookie }),
      await t.request({ method: 'GET', url: '/api/auth/user' }),
      await t.request({ method: 'GET', url: '/api/health' }),
      await t.request({ method: 'GET', url: '/api/gpu-listings?limit=0' }),
      await t.request({ method: 'GET', url: '/api/nowhere' }),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('the public marketplace reads may be kept but are revalidated', async () => {
    for (const url of ['/api/gpu-listings', '/api/marketplace/stats']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });
});
