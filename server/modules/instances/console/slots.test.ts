import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../env';
import { ManualClock } from '../../../lib/clock';
import type { LeasedSlots } from '../../../lib/leased-slots';
import { createTestApp, type TestApp } from '../../../test/app';
import { createConsoleSlots } from './slots';

/**
 * The console's places per user as two server processes see them (console/slots.ts): two
 * stores on one database, or on one Redis when TEST_REDIS_URL is set. No SSH here: the
 * console's own tests are console.test.ts and console-processes.test.ts.
 */
const stores = [
  { store: 'the database', redisUrl: undefined as string | undefined },
  ...(testRedisUrl() ? [{ store: 'Redis', redisUrl: testRedisUrl() }] : []),
];

describe.each(stores)('console places in $store', ({ redisUrl }) => {
  let t: TestApp;
  const clock = new ManualClock(new Date());
  const timing = { leaseMs: 30_000, renewEveryMs: 25 };
  const opened: LeasedSlots[] = [];
  const process = () => {
    const slots = createConsoleSlots({ db: t.database.db, clock, redisUrl, timing });
    opened.push(slots);
    return slots;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const slots of opened) await slots.close();
    await t?.close();
  });

  it('many takes at once on two processes give out exactly the limit', async () => {
    const { userId } = await t.signIn();
    const [a, b] = [process(), process()];
    const leases = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).acquire(userId)),
    );
    expect(leases.filter(Boolean)).toHaveLength(a.limit);
    expect(await b.count(userId)).toBe(a.limit);
    await a.releaseAll();
    await b.releaseAll();
    expect(await a.count(userId)).toBe(0);
  });

  it('a release frees one place, once; another user is not affected', async () => {
    const [{ userId }, other] = [await t.signIn(), await t.signIn()];
    const [a, b] = [process(), process()];
    const held = await Promise.all(Array.from({ length: a.limit }, () => a.acquire(userId)));
    expect(await b.acquire(userId)).toBeNull();
    expect(await b.acquire(other.userId)).not.toBeNull();
    await held[0]?.release();
    await held[0]?.release();
    expect(await b.count(userId)).toBe(a.limit - 1);
    expect(await b.acquire(userId)).not.toBeNull();
    expect(await a.acquire(userId)).toBeNull();
    await a.releaseAll();
    await b.releaseAll();
  });

  it('a living process renews its leases: they outlast the first lease time', async () => {
    const { userId } = await t.signIn();
    const a = process();
    const takenAt = clock.now().getTime();
    expect(await a.acquire(userId)).not.toBeNull();
    // Seen from a process whose clock is past the first lease: held once A has renewed.
    const later = createConsoleSlots({
      db: t.database.db,
      clock: new ManualClock(new Date(takenAt + timing.leaseMs + 1)),
      redisUrl,
      timing,
    });
    opened.push(later);
    clock.advance(timing.leaseMs - 1);
    await expect.poll(() => later.count(userId)).toBe(1);
    await a.releaseAll();
    expect(await later.count(userId)).toBe(0);
  });
});
