import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerQuietRequestLog, SLOW_REQUEST_MS } from './request-log';

function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerQuietRequestLog(app);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/boom', async (_request, reply) => reply.status(503).send({ down: true }));
  // Both held past the slow-request threshold; only one is a long poll by its route config.
  const held = () =>
    new Promise((resolve) => setTimeout(() => resolve({ ok: true }), SLOW_REQUEST_MS + 50));
  app.post('/slow', held);
  app.post('/wait', { config: { longPoll: true } }, held);
  return { app, lines };
}

describe('request logging outside production', () => {
  it('logs nothing for a fine request at the default info level', async () => {
    const { app, lines } = appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/ok' });
    await app.close();
    expect(lines.filter((line) => line.reqId)).toEqual([]);
  });

  it('logs a server error at error, with its request id', async () => {
    const { app, lines } = appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    const failed = lines.filter((line) => line.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, url: '/boom', statusCode: 503 });
    expect(failed[0]?.reqId).toBeTruthy();
  });

  it('shows one line per request at debug', async () => {
    const { app, lines } = appLoggingAt('debug');
    await app.inject({ method: 'GET', url: '/ok' });
    await app.close();
    const done = lines.filter((line) => line.msg === 'request completed');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ level: 20, method: 'GET', url: '/ok', statusCode: 200 });
    expect(done[0]?.reqId).toBeTruthy();
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });

  it('logs a slow request at warn, but never a long poll (the agent wait)', async () => {
    const { app, lines } = appLoggingAt('info');
    await Promise.all([
      app.inject({ method: 'POST', url: '/slow' }),
      app.inject({ method: 'POST', url: '/wait' }),
    ]);
    await app.close();
    const slow = lines.filter((line) => line.msg === 'slow request');
    expect(slow.map((line) => line.url)).toEqual(['/slow']);
    expect(lines.filter((line) => line.url === '/wait')).toEqual([]);
  });
});
