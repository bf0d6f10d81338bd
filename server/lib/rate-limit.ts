import { Redis } from 'ioredis';
import type { Database, Db } from '../db/client';
import { compiledSql } from '../db/compiled';
import type { Clock } from './clock';

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters, one count for every server process (createRateLimiter): Redis when
 * REDIS_URL is set, else PostgreSQL's `rate_limits` table, else (the embedded database, one
 * process) memory.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /** The same count without a promise, where the limiter needs no round trip (in memory). */
  hitNow?(key: string, limit: number, windowMs: number): RateDecision;
  /**
   * Takes one hit back from the key's current window (a try that passed its check: only
   * failed ones count, lib/guess-limits.ts). Nothing when the window is gone or at 0.
   */
  giveBack(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The limiter an app uses when it is given none: Redis when configured; else, on PostgreSQL,
 * the database (several processes on one database must count together: a process's own
 * memory would let each of them allow the whole limit); else, on the embedded database, which
 * one process owns, memory.
 */
export function createRateLimiter(options: {
  redisUrl?: string | undefined;
  database: Pick<Database, 'db' | 'driver'>;
  clock: Clock;
}): RateLimiter {
  if (options.redisUrl) return new RedisRateLimiter(options.redisUrl);
  if (options.database.driver === 'postgres')
    return new DatabaseRateLimiter(options.database.db, options.clock);
  return new MemoryRateLimiter(options.clock);
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    return this.hitNow(key, limit, windowMs);
  }

  hitNow(key: string, limit: number, windowMs: number): RateDecision {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return decide(window.count, limit, window.resetAt - now);
  }

  async giveBack(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.clock.now().getTime() && window.count > 0)
      window.count -= 1;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'rentgpu:rl:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const redisKey = this.prefix + key;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs, 'NX')
      .pttl(redisKey)
      .exec();
    const count = Number(result?.[0]?.[1] ?? 0);
    const ttl = Number(result?.[2]?.[1] ?? windowMs);
    return decide(count, limit, ttl > 0 ? ttl : windowMs);
  }

  async giveBack(key: string): Promise<void> {
    // Only a live window above 0: a DECR of a key that expired meanwhile would leave a -1
    // without an expiry.
    await this.redis.eval(
      "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then redis.call('decr', KEYS[1]) end",
      1,
      this.prefix + key,
    );
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/**
 * One hit: a new window when the key has none or its window ended, else one more in it. The
 * row lock of ON CONFLICT DO UPDATE queues concurrent hits on a key, so every process sees
 * every count. Times are the app's clock (tests move it), sent as ISO strings.
 */
const hitStatement = compiledSql<{ count: number; reset_ms: number | string }>(
  'rate_limits_hit',
  `insert into rate_limits as r (key, count, reset_at) values ($1, 1, $3::timestamptz)
   on conflict (key) do update set
     count = case when r.reset_at <= $2::timestamptz then 1 else r.count + 1 end,
     reset_at = case when r.reset_at <= $2::timestamptz then excluded.reset_at else r.reset_at end
   returning count, extract(epoch from reset_at)::float8 * 1000 as reset_ms`,
);
const giveBackStatement = compiledSql(
  'rate_limits_give_back',
  'update rate_limits set count = count - 1 where key = $1 and reset_at > $2::timestamptz and count > 0',
);
const sweepStatement = compiledSql(
  'rate_limits_sweep',
  'delete from rate_limits where reset_at <= $1::timestamptz',
);

/**
 * Counters in PostgreSQL's `rate_limits` (migration 0035), for several server processes on
 * one database without Redis: one statement per hit. Rows whose window ended are deleted
 * about once a minute per process (a hit that finds an ended window starts it afresh anyway).
 */
export class DatabaseRateLimiter implements RateLimiter {
  private lastSweep = 0;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sweepEveryMs = 60_000,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const now = this.clock.now();
    this.sweep(now);
    const [row] = await hitStatement(this.db, [
      key,
      now.toISOString(),
      new Date(now.getTime() + windowMs).toISOString(),
    ]);
    if (!row) throw new Error('rate_limits: the hit returned no row');
    return decide(Number(row.count), limit, Number(row.reset_ms) - now.getTime());
  }

  async giveBack(key: string): Promise<void> {
    await giveBackStatement(this.db, [key, this.clock.now().toISOString()]);
  }

  /** Deletes ended windows in the background; a failed sweep is tried again at the next. */
  private sweep(now: Date): void {
    if (this.sweeping || now.getTime() - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now.getTime();
    this.sweeping = sweepStatement(this.db, [now.toISOString()])
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.sweeping = null;
      });
  }

  async close(): Promise<void> {
    // The pool belongs to the app's database; only a sweep under way is waited for.
    await this.sweeping;
  }
}

function decide(count: number, limit: number, msLeft: number): RateDecision {
  return {
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}
