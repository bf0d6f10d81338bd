import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type Claim, idempotencyStore } from './store';

/**
 * The leases of the claims this process holds, renewed together by one timer while their
 * requests run (docs/decisions/009, "Leases"): every third of the lease, one UPDATE for all
 * of them. No claim held, no timer and no query. A process that dies stops renewing, so its
 * claims' leases run out and a retry on another process takes them over within the lease.
 */
export class ClaimLeases {
  private readonly held = new Map<string, Claim>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    /** How long a lease lasts; renewed every third of it. */
    readonly leaseMs: number,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /** The request holding `claim` runs: keep its lease alive until `drop`. */
  hold(claim: Claim): void {
    this.held.set(claim.token, claim);
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.renew();
    }, this.leaseMs / 3);
    this.timer.unref();
  }

  /** The request is done with its claim (completed, released, or it gave up on it). */
  drop(claim: Claim): void {
    this.held.delete(claim.token);
    if (this.held.size === 0) this.stopTimer();
  }

  /** How many claims this process is renewing. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Renews every held lease now (the timer calls it; tests call it to stand for time passing
   * with the holder alive). A claim no longer held in the database (completed, or taken over
   * after this process stalled past its lease) matches nothing; it stays until its request
   * drops it. A failure is logged; the next tick tries again, two before the lease runs out.
   */
  renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    this.renewing = idempotencyStore
      .renew(this.db, [...this.held.values()], this.leaseMs)
      .then(
        () => {},
        (error: unknown) => {
          this.log.warn({ err: error }, 'idempotency leases could not be renewed');
        },
      )
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }

  /** Stops renewing (the app closes). */
  close(): void {
    this.held.clear();
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
