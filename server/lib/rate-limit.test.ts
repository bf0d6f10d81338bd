import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '../env';
import { ManualClock } from './clock';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './rate-limit';

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
}

describe('rate limiters', () => {
  it('in-process: a fixed window per key', async () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock);
    await behavesAsFixedWindow(limiter, async (ms) => clock.advance(ms));
    await limiter.close();
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
