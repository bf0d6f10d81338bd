import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentPaths } from '../../shared/contracts/agent-protocol';
import { createApp } from '../app';
import { parseEnv } from '../env';
import { ManualClock } from '../lib/clock';
import { randomToken } from '../lib/crypto';
import { GUESS_LIMITS } from '../lib/guess-limits';
import { DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../lib/rate-limit';
import { AUTH_LIMITS } from '../modules/auth/codes';
import { CapturingMailer } from '../test/app';
import { openTestDatabase } from '../test/database';
import { type Database, openDatabase } from './client';

/**
 * Two server processes on one PostgreSQL without Redis (issue 39): each app chooses its rate
 * limiter as `npm start` does (no limiter given), gets the database's, and the two enforce one
 * limit together — where each process's own memory let each allow the whole limit.
 */
const onPostgres = Boolean(inject('pgTemplate'));
if (!onPostgres) {
  console.warn(
    'server/db/rate-limits.test.ts skipped: several processes share one database on PostgreSQL ' +
      'only (run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres).',
  );
}

const ADDRESS = '198.51.100.39';

describe.skipIf(!onPostgres)('limits on guessing, two server processes on one PostgreSQL', () => {
  let database: Database;
  let second: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  /** A process of the deployment: its own pool, clock and memory; `limiter` unset is the app's choice. */
  const app = (db: Database, limiter?: RateLimiter) =>
    createApp({
      env: parseEnv({ NODE_ENV: 'test' }),
      database: db,
      clock: new ManualClock(),
      mailer: new CapturingMailer(),
      logger: false,
      webDir: null,
      ...(limiter ? { limiter } : {}),
    });

  beforeAll(async () => {
    database = await openTestDatabase();
    if (!database.url) throw new Error('the test database has no URL');
    second = await openDatabase({ kind: 'postgres', url: database.url });
    [a, b] = await Promise.all([app(database), app(second)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await second?.close();
    await database?.close();
  });

  const enrol = (on: FastifyInstance, from = ADDRESS) =>
    on.inject({
      method: 'POST',
      url: agentPaths.enroll,
      payload: { token: randomToken(32), hostname: 'probe', agentVersion: '0.1.0' },
      remoteAddress: from,
    });

  it('each process counts in the database', () => {
    expect(a.deps.limiter).toBeInstanceOf(DatabaseRateLimiter);
    expect(b.deps.limiter).toBeInstanceOf(DatabaseRateLimiter);
  });

  it('random enrolment tokens sent to both from one address: one limit between them, then 429 on each', async () => {
    const limit = GUESS_LIMITS.enrolment.perAddress.limit;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * limit + 10; i++)
      statuses.push((await enrol(i % 2 === 0 ? a : b)).statusCode);
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(statuses.slice(limit)).toEqual(Array(limit + 10).fill(429));
    for (const on of [a, b]) {
      const res = await enrol(on);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().error.code).toBe('RATE_LIMITED');
    }
  });

  it('60 at once, split between them, from one address: no more than the limit get an answer to their token', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => enrol(i % 2 === 0 ? a : b, '198.51.100.40')),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(GUESS_LIMITS.enrolment.perAddress.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(
      60 - GUESS_LIMITS.enrolment.perAddress.limit,
    );
  });

  it('sign-in code tries for one address, from many clients through both: one limit', async () => {
    const email = `target-${randomToken(6)}@example.test`;
    const limit = AUTH_LIMITS.verifyPerTarget.limit;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 4; i++) {
      const res = await (i % 2 === 0 ? a : b).inject({
        method: 'POST',
        url: '/api/auth/verify-otp',
        payload: { email, otp: '123456' },
        remoteAddress: `10.40.0.${i + 1}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(400));
    expect(statuses.slice(limit)).toEqual(Array(4).fill(429));
  });

  it('for contrast, memory limiters: each process allows the whole limit', async () => {
    const [c, d] = await Promise.all([
      app(database, new MemoryRateLimiter(new ManualClock())),
      app(second, new MemoryRateLimiter(new ManualClock())),
    ]);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await enrol(i % 2 === 0 ? c : d, '198.51.100.41')).statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(
        2 * GUESS_LIMITS.enrolment.perAddress.limit,
      );
    } finally {
      await Promise.all([c.close(), d.close()]);
    }
  });
});
