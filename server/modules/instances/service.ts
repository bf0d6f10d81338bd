import type { CreateRentalInput } from '../../../shared/contracts/rentals';
import type { Conn, Db, Tx } from '../../db/client';
import type { AccountBook } from '../ledger/accounts';
import { type Actor, actorOf } from './authorize';
import { applyHostReportCommand } from './commands/apply-host-report';
import { type DeadlineFields, deadlineCommands } from './commands/deadlines';
import { hostHeartbeatCommand } from './commands/host-heartbeat';
import { hostStatusCommand } from './commands/host-status';
import { idleStopCommands } from './commands/idle-stop';
import { instanceJobsCommands } from './commands/jobs';
import { launchCommand } from './commands/launch';
import { placeCommand } from './commands/place';
import { startCommand } from './commands/start';
import { stopCommand, stopLockedCommand } from './commands/stop';
import { preemptCommand, terminateCommand } from './commands/terminate';
import { createInstancesContext } from './context';
import { hostInstancesRepo } from './host-side/host-repo';
import { createPlans, type PlanCapabilities } from './plans';
import { balanceAlert, warnLowBalances } from './plans/metered-alerts';
import { instanceQueries } from './reads/queries';
import type { InstanceRow } from './repo-rows';
import type {
  CreateMeteredInput,
  Deadlines,
  EndReason,
  IdleStop,
  InstancesConfig,
  RentOptions,
} from './types';

export type { ChoiceWords, LaunchRequest } from './commands/launch';
export { planName, termsOf } from './plans';
export type { InstanceRow } from './repo-rows';

/**
 * The instance core (docs/decisions/007, 016): one lifecycle for every way of getting a GPU
 * machine, billed by one of the plans in plans/. Each action is a command in commands/
 * (lock the row, ask the lifecycle rule and the policy, act through the plan); this file
 * only assembles them. Hosts tell it what happened through `applyHostReport`, and only the
 * instances module writes the instances table.
 */
export function createInstancesService(db: Db, accounts: AccountBook, config: InstancesConfig) {
  const ctx = createInstancesContext(db, accounts, config);
  const plans = createPlans(ctx);
  ctx.stopLocked = stopLockedCommand(plans);
  const stop = stopCommand(ctx, plans);
  const start = startCommand(ctx, plans);
  const terminate = terminateCommand(ctx, plans);
  const queries = instanceQueries(ctx);
  const applyHostReport = applyHostReportCommand(ctx, plans);
  const applyHostStatus = hostStatusCommand(ctx, applyHostReport);
  const deadlines = deadlineCommands(ctx, plans);
  const idle = idleStopCommands(ctx);
  const launch = launchCommand(ctx, plans);

  /** What has come due, charged by every plan that does what `does` asks (a job per kind). */
  async function chargeDueOf(does: (c: PlanCapabilities) => boolean, at: Date, batch: number) {
    let count = 0;
    for (const plan of plans.values()) {
      if (does(plan.terms.capabilities)) count += await plan.chargeDue(at, batch);
    }
    return count;
  }

  return {
    ...queries,
    ...instanceJobsCommands(ctx, plans),
    /** Deadlines: set or clear "stop at" and "terminate at", and their jobs (commands/deadlines.ts). */
    ...deadlines,
    /** Idle stop: its setting, activity from heartbeats and consoles, its job (commands/idle-stop.ts). */
    ...idle,

    /**
     * A PATCH of an instance's deadlines and idle stop: each part the request names (the
     * deadlines first; nothing named reads as a deadline change of nothing, answered as is).
     */
    async setSchedule(
      actor: Actor,
      id: number,
      change: { deadlines: Deadlines; idle: Partial<IdleStop> },
      now: Date,
      fields?: DeadlineFields,
    ): Promise<InstanceRow> {
      const idleNamed = Object.keys(change.idle).length > 0;
      if (Object.keys(change.deadlines).length > 0 || !idleNamed) {
        const row = await deadlines.setDeadlines(actor, id, change.deadlines, now, fields);
        if (!idleNamed) return row;
      }
      return idle.setIdleStop(actor, id, change.idle, now);
    },

    /** The one front door for a new instance, of any plan (commands/launch.ts). */
    launch: launch.request,

    /** Rents one unit on the booked plan at the quote the client was shown (plans/booked.ts). */
    rent: (userId: string, body: CreateRentalInput, at: Date, options: RentOptions = {}) =>
      launch.open(
        {
          plan: 'booked',
          userId,
          gpuListingId: body.gpuListingId,
          providerId: body.providerId,
          source: 'marketplace',
          kind: 'vm',
          ask: {
            hours: body.durationHours,
            providerId: body.providerId,
            quote: { hourlyRate: body.hourlyRate, totalCost: body.totalCost },
          },
        },
        at,
        options,
      ),

    /** A metered instance on one listing (plans/metered.ts). */
    createMetered: (
      userId: string,
      input: CreateMeteredInput,
      at: Date,
      options: RentOptions = {},
    ): Promise<InstanceRow> => {
      const { gpuListingId, source, kind = 'vm', storageGb, deadlines, idleStop, ...setup } = input;
      return launch.open(
        {
          plan: 'metered',
          userId,
          gpuListingId,
          source,
          kind,
          setup,
          ask: {
            storageGb,
            ...(deadlines ? { deadlines } : {}),
            ...(idleStop ? { idleStop } : {}),
          },
        },
        at,
        options,
      );
    },

    /** A renter's stop, as the instance's plan has it (commands/stop.ts). */
    stop: (who: string | Actor, id: number, at: Date, by: EndReason = 'user') =>
      stop(actorOf(who), id, at, by),
    /** The rentals surface's stop: a rental ends, settled; anything not listed there is 404. */
    stopRental: (userId: string, id: number, at: Date, by: EndReason = 'user') =>
      stop({ userId, shows: 'rental', calls: 'Rental' }, id, at, by),
    /** Starts a stopped instance again (commands/start.ts). */
    start: (who: string | Actor, id: number, at: Date) => start(actorOf(who), id, at),
    /** Takes back the GPU of an instance whose plan may be preempted (commands/terminate.ts). */
    preempt: preemptCommand(ctx, plans),
    /** Ends an instance for good, settled by its plan (commands/terminate.ts). */
    terminate: (who: string | Actor, id: number, at: Date, by: EndReason = 'user') =>
      terminate(actorOf(who), id, at, by),

    /** The caller's instance for a surface that calls it `what` (404 for anyone else's). */
    findOwn: (userId: string, id: number, what = 'Instance') =>
      queries.getOwn({ userId, calls: what }, id),

    applyHostReport,
    /** A host's status of one of its instances (commands/host-status.ts). */
    applyHostStatus,
    /**
     * A host's heartbeat: its statuses applied, its pending instances placed, its activity
     * recorded; answers what the host should run (commands/host-heartbeat.ts).
     */
    hostHeartbeat: hostHeartbeatCommand(ctx, applyHostStatus, placeCommand(ctx)),
    /** A host went dark: its live instances are unreachable from `at` (never billed meanwhile). */
    markUnreachable: (tx: Tx, hostId: string, at: Date) =>
      hostInstancesRepo.markUnreachable(tx, hostId, at),
    /** Its host is back: the unreachable time is added up (a rental's is refunded at its end). */
    markReachable: (tx: Tx, hostId: string, at: Date) =>
      hostInstancesRepo.markReachable(tx, hostId, at),

    /** Job: completes instances escrowed up front at the end of their hours (plans/booked.ts). */
    expireBooked: (at: Date, batch = 50) => chargeDueOf((c) => c.escrowsUpFront, at, batch),
    /** Job: charges the next minute of instances charged by the minute (plans/metered-minute.ts). */
    chargeMeteredMinute: (at: Date, batch = 500) =>
      chargeDueOf((c) => c.chargesPerMinute, at, batch),
    /** Job: low-balance warnings (plans/metered-alerts.ts). */
    warnLowBalances: (at: Date, batch = 500) => warnLowBalances(ctx, at, batch),
    /** What the app's banner shows: a low balance, or instances stopped for want of credits. */
    balanceAlert: (userId: string, conn?: Conn) => balanceAlert(ctx, userId, conn),
  };
}

export type InstancesService = ReturnType<typeof createInstancesService>;
