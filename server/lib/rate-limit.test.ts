import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../db/schema';
import { testRedisUrl } from '../env';
import { openTestDatabase } from '../test/database';
import { ManualClock } from './clock';
import {
  createRateLimiter,
  DatabaseRateLimiter,
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from './rate-limit';

async function behavesAsFixedWindow(limiter: RateLimiter, advance: (ms: number) => Promise<void>) {
  const key = `test:${randomUUID()}`;
  const first = await limiter.hit(key, 2, 1_000);
  expect(first).toMatchObject({ allowed: true, remaining: 1 });
  expect((await limiter.hit(key, 2, 1_000)).allowed).toBe(true);
  const third = await limiter.hit(key, 2, 1_000);
  expect(third.allowed).toBe(false);
  expect(third.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect((await limiter.hit(`${key}:other`, 2, 1_000)).allowed).toBe(true);
  await advance(1_100);
  expect((await limiter.hit(key, 2, 1_000)).allowed).toBe(true);

  // A hit given back (a try that passed its check) leaves room for one more.
  const back = `test:${randomUUID()}`;
  await limiter.hit(back, 2, 60_000);
  await limiter.hit(back, 2, 60_000);
  await limiter.giveBack(back);
  expect(await limiter.hit(back, 2, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
  expect((await limiter.hit(back, 2, 60_000)).allowed).toBe(false);
  // Never below 0, and nothing for a key without a window.
  const empty = `test:${randomUUID()}`;
  await limiter.giveBack(empty);
  await limiter.hit(empty, 1, 60_000);
  await limiter.giveBack(empty);
  await limiter.giveBack(empty);
  expect(await limiter.hit(empty, 1, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
}

describe('rate limiters', () => {
  it('in-process: a fixed window per key', async () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock);
    await behavesAsFixedWindow(limiter, async (ms) => clock.advance(ms));
    await limiter.close();
  });

  it('the database: a fixed window per key, one statement per hit; ended windows are swept', async () => {
    const database = await openTestDatabase();
    const clock = new ManualClock();
    try {
      const limiter = new DatabaseRateLimiter(database.db, clock, 1_000);
      await behavesAsFixedWindow(limiter, async (ms) => clock.advance(ms));
      const retry = await limiter.hit('test:retry', 1, 90_000);
      expect(retry.retryAfterSeconds).toBe(90);
      clock.advance(30_000);
      expect((await limiter.hit('test:retry', 1, 90_000)).retryAfterSeconds).toBe(60);
      // A hit after the sweep interval deletes the rows whose window ended.
      clock.advance(61_000);
      await limiter.hit('test:fresh', 1, 1_000);
      await limiter.close();
      const rows = await database.db.select().from(rateLimits);
      expect(rows.map((r) => r.key)).toEqual(['test:fresh']);
    } finally {
      await database.close();
    }
  });

  it('an app without a limiter of its own: Redis when configured, else the database on PostgreSQL, else memory', () => {
    const clock = new ManualClock();
    const database = (driver: 'pglite' | 'postgres') => ({ driver, db: {} as never });
    expect(createRateLimiter({ database: database('pglite'), clock })).toBeInstanceOf(
      MemoryRateLimiter,
    );
    expect(createRateLimiter({ database: database('postgres'), clock })).toBeInstanceOf(
      DatabaseRateLimiter,
    );
  });

  it.skipIf(!testRedisUrl())('Redis: the same window shared by every server node', async () => {
    const a = new RedisRateLimiter(testRedisUrl() ?? '', `rentgpu:test:${randomUUID()}:`);
    try {
      await behavesAsFixedWindow(a, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    } finally {
      await a.close();
    }
  });
});
