import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { Clock } from './clock';

/**
 * At most `limit` things held at once per key (a user's open web consoles), counted across
 * every server process: each holder takes a lease that its process renews while it holds it,
 * and gives back when done. A process that dies stops renewing: its leases expire after
 * `leaseMs` and their places are free again. Two stores: Redis (REDIS_URL) below, the
 * database otherwise (modules/instances/console/slots.ts).
 */
export interface LeasedSlots {
  readonly limit: number;
  /** How many of `key`'s places are held now (unexpired leases), by any process. */
  count(key: string): Promise<number>;
  /** Takes a place; null when `limit` are already held. Renewed until released. */
  acquire(key: string): Promise<SlotLease | null>;
  /** Gives back every lease this process holds (a graceful shutdown). */
  releaseAll(): Promise<void>;
  /** Stops renewing and closes the store's connection; leases still held expire on their own. */
  close(): Promise<void>;
}

export interface SlotLease {
  readonly id: string;
  /** Gives the place back; again, or after close, does nothing. */
  release(): Promise<void>;
}

export interface LeaseTiming {
  /** How long a lease lasts without renewal: a dead process's places are free after this. */
  leaseMs: number;
  /** How often a process renews the leases it holds (well under leaseMs). */
  renewEveryMs: number;
}

export const CONSOLE_LEASE: LeaseTiming = { leaseMs: 30_000, renewEveryMs: 10_000 };

/** A server process's name on the leases it holds (which host, which process, which start). */
export function processOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export interface LeaseLog {
  warn(obj: object, msg: string): void;
}

/** A lease held by this process: its id and the key it counts against. */
export interface HeldLease {
  id: string;
  key: string;
}

/**
 * What both stores share: the leases this process holds, renewed together on one timer
 * (running only while there is one to renew), released one by one or all at once.
 */
export abstract class LeaseKeeper implements LeasedSlots {
  private readonly held = new Map<string, HeldLease>();
  private timer: NodeJS.Timeout | null = null;
  /**
   * The renewal on its way to the store, if any. A renewal puts back a lease the store lost,
   * so a release waits for it first: removed before it landed, a released lease came back and
   * held its place until it expired (seen in CI: a count of 1 after every lease was released).
   */
  private renewing: Promise<void> | null = null;
  private closed = false;
  readonly owner = processOwnerId();

  constructor(
    readonly limit: number,
    protected readonly clock: Clock,
    protected readonly timing: LeaseTiming,
    private readonly log?: LeaseLog,
  ) {}

  abstract count(key: string): Promise<number>;
  /** Takes the place in the store when fewer than `limit` are held; false when refused. */
  protected abstract take(lease: HeldLease, now: Date, expiresAt: Date): Promise<boolean>;
  /** Extends (or, when the store lost it, puts back) each of these leases to `expiresAt`. */
  protected abstract renew(leases: HeldLease[], expiresAt: Date): Promise<void>;
  protected abstract remove(leases: HeldLease[]): Promise<void>;
  protected abstract disconnect(): Promise<void>;

  async acquire(key: string): Promise<SlotLease | null> {
    if (this.closed) throw new Error('lease store closed');
    const lease = { id: randomUUID(), key };
    const now = this.clock.now();
    if (!(await this.take(lease, now, this.expiryFrom(now)))) return null;
    this.held.set(lease.id, lease);
    this.startRenewing();
    return { id: lease.id, release: () => this.release(lease) };
  }

  private async release(lease: HeldLease): Promise<void> {
    if (!this.held.delete(lease.id) || this.closed) return;
    if (this.held.size === 0) this.stopRenewing();
    await this.renewing;
    await this.remove([lease]);
  }

  async releaseAll(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    this.stopRenewing();
    await this.renewing;
    if (all.length > 0 && !this.closed) await this.remove(all);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.held.clear();
    this.stopRenewing();
    await this.disconnect();
  }

  protected expiryFrom(now: Date): Date {
    return new Date(now.getTime() + this.timing.leaseMs);
  }

  private startRenewing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const leases = [...this.held.values()];
      if (leases.length === 0 || this.closed || this.renewing) return;
      this.renewing = this.renew(leases, this.expiryFrom(this.clock.now()))
        .catch((error: unknown) => {
          this.log?.warn({ err: error, leases: leases.length }, 'renewing console leases failed');
        })
        .finally(() => {
          this.renewing = null;
        });
    }, this.timing.renewEveryMs);
    this.timer.unref();
  }

  private stopRenewing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * Leases in Redis: one sorted set per key, a lease per member scored by its expiry (ms).
 * Taking a place is one script (drop the expired, count, add when under the limit), so two
 * processes never both take the last place.
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export class RedisLeasedSlots extends LeaseKeeper {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(
    url: string,
    limit: number,
    clock: Clock,
    options: { timing?: LeaseTiming; prefix?: string; log?: LeaseLog } = {},
  ) {
    super(limit, clock, options.timing ?? CONSOLE_LEASE, options.log);
    this.prefix = options.prefix ?? 'rentgpu:console:';
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  /** The set outlives its leases a while (it is only garbage collection; scores decide). */
  private get keyTtlMs(): number {
    return this.timing.leaseMs * 2;
  }

  async count(key: string): Promise<number> {
    return this.redis.zcount(this.prefix + key, `(${this.clock.now().getTime()}`, '+inf');
  }

  protected async take(lease: HeldLease, now: Date, expiresAt: Date): Promise<boolean> {
    const taken = await this.redis.eval(
      TAKE,
      1,
      this.prefix + lease.key,
      now.getTime(),
      this.limit,
      expiresAt.getTime(),
      lease.id,
      this.keyTtlMs,
    );
    return Number(taken) === 1;
  }

  protected async renew(leases: HeldLease[], expiresAt: Date): Promise<void> {
    const batch = this.redis.pipeline();
    for (const lease of leases) {
      batch.zadd(this.prefix + lease.key, expiresAt.getTime(), lease.id);
      batch.pexpire(this.prefix + lease.key, this.keyTtlMs);
    }
    await batch.exec();
  }

  protected async remove(leases: HeldLease[]): Promise<void> {
    const batch = this.redis.pipeline();
    for (const lease of leases) batch.zrem(this.prefix + lease.key, lease.id);
    await batch.exec();
  }

  protected async disconnect(): Promise<void> {
    await this.redis.quit();
  }
}
