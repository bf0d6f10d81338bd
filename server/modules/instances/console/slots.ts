import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import {
  CONSOLE_LEASE,
  type HeldLease,
  type LeasedSlots,
  LeaseKeeper,
  type LeaseLog,
  type LeaseTiming,
  RedisLeasedSlots,
} from '../../../lib/leased-slots';
import { MAX_CONSOLES_PER_USER } from './guards';
import { consoleSessionsRepo } from './repo';

/**
 * The web console's places per user (docs/architecture.md, "Web console"), one count across
 * every server process: in Redis when REDIS_URL is set, else in the database
 * (`console_sessions`). Keyed by user id.
 */
export function createConsoleSlots(options: {
  db: Db;
  clock: Clock;
  redisUrl?: string | undefined;
  limit?: number;
  timing?: LeaseTiming;
  log?: LeaseLog;
}): LeasedSlots {
  const limit = options.limit ?? MAX_CONSOLES_PER_USER;
  const timing = options.timing ?? CONSOLE_LEASE;
  return options.redisUrl
    ? new RedisLeasedSlots(options.redisUrl, limit, options.clock, {
        timing,
        ...(options.log ? { log: options.log } : {}),
      })
    : new DatabaseLeasedSlots(options.db, limit, options.clock, timing, options.log);
}

/** Leases as rows of `console_sessions`, one per open console, owned by this process. */
export class DatabaseLeasedSlots extends LeaseKeeper {
  constructor(
    private readonly db: Db,
    limit: number,
    clock: Clock,
    timing: LeaseTiming = CONSOLE_LEASE,
    log?: LeaseLog,
  ) {
    super(limit, clock, timing, log);
  }

  count(userId: string): Promise<number> {
    return consoleSessionsRepo.countLive(this.db, userId, this.clock.now());
  }

  protected take(lease: HeldLease, now: Date, expiresAt: Date): Promise<boolean> {
    return consoleSessionsRepo.take(
      this.db,
      { id: lease.id, userId: lease.key, owner: this.owner, now, expiresAt },
      this.limit,
    );
  }

  protected renew(leases: HeldLease[], expiresAt: Date): Promise<void> {
    const rows = leases.map((l) => ({ id: l.id, userId: l.key }));
    return consoleSessionsRepo.renew(this.db, rows, this.owner, this.clock.now(), expiresAt);
  }

  protected remove(leases: HeldLease[]): Promise<void> {
    return consoleSessionsRepo.remove(
      this.db,
      leases.map((l) => l.id),
    );
  }

  protected async disconnect(): Promise<void> {}
}
