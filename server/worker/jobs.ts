import type { AccountService } from '../modules/account/service';
import type { DemoHost } from '../modules/hosts/demo-host';
import type { OutageCredits } from '../modules/hosts/outage-credits';
import type { HostsService } from '../modules/hosts/service';
import type { InstancesService } from '../modules/instances/service';

/**
 * One named duty of the worker. `run` does one bounded batch in its own database
 * transaction(s), claims rows with FOR UPDATE SKIP LOCKED (so several workers share the
 * work) and is idempotent; it returns how many items it handled. A job that handled a full
 * batch is run again in the same pass, so a backlog drains.
 */
export interface Job {
  name: string;
  /** Run at most once per this many ms (default: every pass). */
  everyMs?: number;
  batch: number;
  /**
   * Run again until a pass handles nothing, not only while passes are full (a job that
   * moves each item one step per pass, as the metered minute does when catching up).
   */
  drain?: boolean;
  run(now: Date, batch: number): Promise<number>;
}

/** An instance whose host has been unreachable this long fails and settles (docs/decisions/011). */
export const UNREACHABLE_FAIL_AFTER_MS = 20 * 60_000;

/** The worker's jobs, in the order one pass runs them. */
export function instanceJobs(deps: {
  instances: InstancesService;
  demoHost: DemoHost;
  hosts: HostsService;
  outageCredits: OutageCredits;
}): Job[] {
  const { instances, demoHost, hosts, outageCredits } = deps;
  return [
    { name: 'demo-host', batch: 50, run: (now, n) => demoHost.converge(now, n) },
    // Before billing: a host silent for 90 s is offline and its instances stop being billed.
    {
      name: 'silent-hosts',
      batch: 100,
      run: (now, n) => hosts.markSilentHostsOffline(now, n),
    },
    {
      name: 'unreachable-instances',
      batch: 50,
      run: (now, n) => instances.failUnreachable(now, UNREACHABLE_FAIL_AFTER_MS, n),
    },
    {
      name: 'provisioning-deadline',
      batch: 50,
      run: (now, n) => instances.failOverdueProvisioning(now, n),
    },
    { name: 'booked-expiry', batch: 50, run: (now, n) => instances.expireBooked(now, n) },
    // Renters' deadlines, before the minute is charged: terminate first (it outranks a stop).
    {
      name: 'deadline-terminate',
      batch: 100,
      run: (now, n) => instances.terminateAtDeadlines(now, n),
    },
    { name: 'deadline-stop', batch: 100, run: (now, n) => instances.stopAtDeadlines(now, n) },
    // Idle stop (docs/decisions/019): warns 10 minutes before, then stops; before the minute.
    { name: 'idle-stop', batch: 200, run: (now, n) => instances.idleStops(now, n) },
    {
      name: 'metered-minute',
      batch: 500,
      drain: true,
      run: (now, n) => instances.chargeMeteredMinute(now, n),
    },
    {
      name: 'outage-credits',
      batch: 20,
      everyMs: 60_000,
      run: (now, n) => outageCredits.creditLongOutages(now, n),
    },
    {
      name: 'low-balance',
      batch: 500,
      everyMs: 30_000,
      run: (now, n) => instances.warnLowBalances(now, n),
    },
  ];
}

/** How often unused demo accounts are looked for; they are due a day after their last use. */
export const DEMO_CLEANUP_EVERY_MS = 10 * 60_000;
/** How often expired Idempotency-Keys are deleted (expired keys are already ignored when claiming). */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 10 * 60_000;

/** Jobs that keep the database tidy, after the instances' jobs in every pass. */
export function housekeepingJobs(deps: {
  account: Pick<AccountService, 'closeUnusedDemoAccounts'>;
  /** Deletes up to `batch` expired Idempotency-Keys (lib/idempotency's store). */
  sweepIdempotencyKeys(now: Date, batch: number): Promise<number>;
  /** Deletes up to `batch` events past their retention (docs/decisions/027). */
  pruneEvents(now: Date, batch: number): Promise<number>;
}): Job[] {
  const { account, sweepIdempotencyKeys, pruneEvents } = deps;
  return [
    // Demo visitors' accounts left unused for a day (docs/decisions/010): whole batches until
    // none is left, so a backlog does not wait for later passes.
    {
      name: 'demo-cleanup',
      batch: 20,
      everyMs: DEMO_CLEANUP_EVERY_MS,
      drain: true,
      run: (now, n) => account.closeUnusedDemoAccounts(n, now),
    },
    {
      name: 'idempotency-sweep',
      batch: 1000,
      everyMs: IDEMPOTENCY_SWEEP_EVERY_MS,
      run: (now, n) => sweepIdempotencyKeys(now, n),
    },
    // Events older than EVENT_RETENTION_DAYS (30): the oldest first, in batches.
    {
      name: 'event-retention',
      batch: 5000,
      everyMs: IDEMPOTENCY_SWEEP_EVERY_MS,
      run: (now, n) => pruneEvents(now, n),
    },
  ];
}
