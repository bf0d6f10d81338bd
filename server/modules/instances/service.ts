import type { CreateRentalInput } from '../../../shared/contracts/rentals';
import {
  acceptsReport,
  allowedActions,
  canAct,
  type InstanceAction,
  type InstanceState,
  stateAfter,
} from '../../../shared/rules/instance-lifecycle';
import { oneHourMicros } from '../../../shared/rules/metering';
import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';
import {
  bookedCostMicros,
  quoteRental,
  STORAGE_ADDON_MICROS,
  sameDollars,
} from '../../../shared/rules/pricing';
import type { Conn, Db, Tx } from '../../db/client';
import type { Instance } from '../../db/schema';
import {
  badRequest,
  capacityUnavailable,
  conflict,
  hostOffline,
  insufficientCredits,
  invalidStateTransition,
  listingUnavailable,
  notFound,
  quoteMismatch,
} from '../../lib/errors';
import type { AccountBook } from '../ledger/accounts';
import { ledgerService, prepareLines } from '../ledger/service';
import { listingsService } from '../listings/service';
import { createMeteredBilling } from './metered-billing';
import { type InstanceRow, instancesRepo } from './repo';
import { createSettlement, stateOf } from './settlement';
import type {
  ConsoleTarget,
  CreateMeteredInput,
  EndReason,
  HostReport,
  InstanceEvent,
  InstancesConfig,
  RentOptions,
} from './types';

export type { InstanceRow } from './repo';

function parseDollars(value: string): bigint | null {
  try {
    return dollarsToMicros(value);
  } catch {
    return null;
  }
}

/**
 * The instance core (docs/decisions/007): one lifecycle for every way of getting a GPU
 * machine, two billing plans. Hosts tell it what happened through `applyHostReport`.
 */
export function createInstancesService(db: Db, accounts: AccountBook, config: InstancesConfig) {
  /** Events are told only after their transaction commits. */
  const afterCommit = async <T>(work: (tx: Tx) => Promise<T>, told: InstanceEvent[]) => {
    const result = await accounts.transact(work);
    config.onChange?.();
    for (const e of told) config.onInstanceEvent?.(e);
    return result;
  };

  const settlement = createSettlement(accounts, config);
  const { settleBooked, endMetered, stopMetered } = settlement;

  /** After a user's action commits, the instance's host hears at once (its agent's wait). */
  const tellHost = (row: InstanceRow) => {
    if (row.instance.hostId !== null) config.onHostWork?.(row.instance.hostId);
    return row;
  };
  const forHost = async (work: (tx: Tx) => Promise<InstanceRow>, told: InstanceEvent[]) =>
    tellHost(await afterCommit(work, told));

  function refuse(instance: Instance, action: InstanceAction): never {
    const state = stateOf(instance);
    throw invalidStateTransition(action, state, allowedActions(state));
  }

  /** The error for a rent that could not take a unit: the first rule it breaks. */
  async function whyNotRentable(body: CreateRentalInput, userId: string) {
    const found = await listingsService.findById(db, body.gpuListingId);
    // Another demo visitor's sandbox listing does not exist for this renter.
    if (!found || (found.provider.isSandbox && found.provider.userId !== userId))
      return notFound('GPU listing');
    const listing = found.listing;
    if (body.providerId !== listing.providerId) {
      return badRequest('providerId does not match the listing.', {
        fields: { providerId: ['Does not match the listing'] },
      });
    }
    const quote = quoteRental(listing.hourlyRateMicros, body.durationHours);
    if (
      !sameDollars(body.hourlyRate, quote.hourlyRate) ||
      !sameDollars(body.totalCost, quote.totalCost)
    ) {
      return quoteMismatch({ ...quote });
    }
    if (found.hostStatus === 'offline' || found.hostStatus === 'none') {
      return hostOffline(found.hostStatus);
    }
    return listingUnavailable();
  }

  /** The caller's instance, locked; someone else's is as good as missing. */
  async function lockOwn(tx: Tx, userId: string, id: number, what: string) {
    const row = await instancesRepo.lockView(tx, id);
    if (!row || row.instance.userId !== userId) throw notFound(what);
    return row;
  }

  async function requireOneHour(tx: Tx, userId: string, rate: bigint, storageGb: number) {
    const required = oneHourMicros(rate, storageGb);
    const available = await ledgerService.walletBalance(tx, userId);
    if (available < required) throw insufficientCredits(required, available);
  }

  return {
    ...createMeteredBilling(db, accounts, config, settlement),
    /**
     * Rents one unit on the booked plan: the server's quote must match what the client
     * showed; in one transaction a unit is taken, the booked cost moves from the wallet to
     * escrow and the storage add-on is charged as its own line.
     */
    async rent(
      userId: string,
      body: CreateRentalInput,
      now: Date,
      options: RentOptions = {},
    ): Promise<InstanceRow> {
      const clientRate = parseDollars(body.hourlyRate);
      const booked = clientRate === null ? 0n : bookedCostMicros(clientRate, body.durationHours);
      // The common case is one statement: take a unit at the rate the client was shown, insert
      // the instance and post the money (instancesRepo.rentBooked). Anything else (unknown
      // listing, changed price, a total that is not the quote, rented out) is explained after.
      const quoted = clientRate !== null && sameDollars(body.totalCost, microsToDollars(booked));
      const created = !quoted
        ? null
        : await accounts.transact(async (tx) => {
            // The posting's memo and reference name the instance: the statement writes them.
            const posting = prepareLines('rental_start', [
              {
                accountId: await accounts.wallet(tx, userId),
                amountMicros: -(booked + STORAGE_ADDON_MICROS),
              },
              {
                accountId: await accounts.system(tx, 'escrow'),
                amountMicros: booked,
                system: true,
              },
              {
                accountId: await accounts.system(tx, 'platform_revenue'),
                amountMicros: STORAGE_ADDON_MICROS,
                system: true,
              },
            ]);
            const rented = await instancesRepo.rentBooked(tx, {
              listingId: body.gpuListingId,
              rateMicros: clientRate,
              providerId: body.providerId,
              userId,
              hours: body.durationHours,
              bookedMicros: booked,
              storageFeeMicros: STORAGE_ADDON_MICROS,
              at: now,
              endsAt: new Date(now.getTime() + body.durationHours * 3_600_000),
              provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
              posting,
            });
            if (!rented) return null;
            // A wallet that cannot pay: nothing stays (the transaction rolls back).
            ledgerService.checkMoved(posting, rented.posted);
            await options.record?.(tx, rented.row);
            return rented.row;
          });
      if (!created) throw await whyNotRentable(body, userId);
      config.onChange?.();
      return tellHost(created);
    },

    /**
     * Stops the caller's rental (a booked instance) for good; stopping twice changes
     * nothing. One stopped before it was ready is cancelled with a full refund.
     */
    async stopRental(
      userId: string,
      id: number,
      now: Date,
      by: EndReason = 'user',
    ): Promise<InstanceRow> {
      return forHost(async (tx) => {
        const row = await lockOwn(tx, userId, id, 'Rental');
        if (row.instance.billingPlan !== 'booked') throw notFound('Rental');
        if (!canAct(stateOf(row.instance), 'terminate')) return row;
        const instance = await settleBooked(tx, row.instance, {
          at: now,
          by,
          to: stateAfter('terminate', row.instance.hostId !== null),
        });
        return { ...row, instance };
      }, []);
    },

    /**
     * A metered instance (VM, deploy, API instance without a duration): a unit is taken
     * and the wallet must hold one hour at the instance's rate. Charged per minute by the
     * worker from the first minute on; compute only once running.
     */
    async createMetered(
      userId: string,
      input: CreateMeteredInput,
      now: Date,
      options: RentOptions = {},
    ) {
      return forHost(async (tx) => {
        const found = await listingsService.findById(tx, input.gpuListingId);
        if (!found) throw notFound('GPU listing');
        const rate = found.listing.hourlyRateMicros;
        await requireOneHour(tx, userId, rate, input.storageGb);
        if (found.hostStatus === 'offline' || found.hostStatus === 'none') {
          throw hostOffline(found.hostStatus);
        }
        // A sandbox listing is taken by its owner only (the guard is inside reserveUnit).
        const listing = await listingsService.reserveUnit(
          tx,
          found.listing.id,
          rate,
          undefined,
          userId,
        );
        if (!listing) throw capacityUnavailable();
        const instance = await instancesRepo.insert(tx, {
          userId,
          gpuListingId: listing.id,
          providerId: listing.providerId,
          hostId: listing.hostId,
          source: input.source,
          template: input.template ?? null,
          ...(input.cpus !== undefined ? { cpus: input.cpus } : {}),
          ...(input.memoryGb !== undefined ? { memoryGb: input.memoryGb } : {}),
          userData: input.userData ?? null,
          platformSshPublicKey: input.platformKey?.publicKey ?? null,
          platformSshPrivateKey: input.platformKey?.privateKey ?? null,
          billingPlan: 'metered',
          status: 'provisioning',
          stateChangedAt: now,
          hourlyRateMicros: rate,
          storageGb: input.storageGb,
          startTime: now,
          paidThrough: now,
          provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
        });
        const row = await instancesRepo.findView(tx, instance.id);
        if (!row) throw new Error('instance vanished');
        await options.record?.(tx, row);
        return row;
      }, []);
    },

    /** The caller's metered instance; anyone else's (or a rental) is not found. */
    async getOwnMetered(userId: string, id: number): Promise<InstanceRow> {
      const row = await instancesRepo.findView(db, id);
      if (!row || row.instance.userId !== userId || row.instance.billingPlan !== 'metered') {
        throw notFound('Instance');
      }
      return row;
    },

    /** Starts a stopped metered instance: one hour of balance and a free unit needed. */
    async start(userId: string, id: number, now: Date) {
      return forHost(async (tx) => {
        const row = await lockOwn(tx, userId, id, 'Instance');
        const instance = row.instance;
        if (!canAct(stateOf(instance), 'start')) refuse(instance, 'start');
        await requireOneHour(tx, userId, instance.hourlyRateMicros, instance.storageGb);
        if (!(await listingsService.takeUnit(tx, instance.gpuListingId))) {
          throw capacityUnavailable();
        }
        const moved = await instancesRepo.transition(tx, id, ['stopped'], 'starting', now, {
          endReason: null,
          provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
        });
        if (!moved) refuse(instance, 'start');
        return { ...row, instance: moved };
      }, []);
    },

    /** Stops a metered instance: compute stops being charged and its unit goes back. */
    async stop(userId: string, id: number, now: Date) {
      return forHost(async (tx) => {
        const row = await lockOwn(tx, userId, id, 'Instance');
        const instance = row.instance;
        if (instance.billingPlan !== 'metered' || !canAct(stateOf(instance), 'stop')) {
          refuse(instance, 'stop');
        }
        return { ...row, instance: await stopMetered(tx, instance, now, null) };
      }, []);
    },

    /** Ends any instance for good; a booked one is settled as a rental stop is. */
    async terminate(userId: string, id: number, now: Date, by: EndReason = 'user') {
      return forHost(async (tx) => {
        const row = await lockOwn(tx, userId, id, 'Instance');
        const instance = row.instance;
        if (!canAct(stateOf(instance), 'terminate')) refuse(instance, 'terminate');
        const how = { at: now, by, to: stateAfter('terminate', instance.hostId !== null) };
        const ended =
          instance.billingPlan === 'booked'
            ? await settleBooked(tx, instance, how)
            : await endMetered(tx, instance, how);
        return { ...row, instance: ended };
      }, []);
    },

    /**
     * The one way readiness, connection details and failures reach an instance: a host's
     * report. Ignored (accepted: false) when it names an older generation or a transition
     * the lifecycle does not have. Returns the instance's generation afterwards.
     */
    async applyHostReport(report: HostReport, now: Date) {
      const at = report.at ?? now;
      if (report.state === 'running') {
        // The common report, a provisioning instance's first readiness, is one statement.
        const ready = await instancesRepo.markReady(db, {
          id: report.instanceId,
          generation: report.generation,
          at,
          ...report.connection,
        });
        if (ready) {
          const { instance, recipient } = ready;
          config.onChange?.();
          if (instance.billingPlan === 'booked') {
            config.onInstanceEvent?.({
              kind: 'ready',
              instanceId: instance.id,
              userId: instance.userId,
              recipient,
            });
          }
          return { accepted: true, generation: instance.generation };
        }
      }
      const told: InstanceEvent[] = [];
      const outcome = await afterCommit(async (tx) => {
        const row = await instancesRepo.lockView(tx, report.instanceId);
        if (!row) return { accepted: false, generation: 0 };
        const instance = row.instance;
        const state = stateOf(instance);
        const ignored = { accepted: false, generation: instance.generation };
        if (report.generation !== instance.generation) return ignored;
        if (!acceptsReport(state, report.state)) return ignored;
        let moved: Instance | null = null;
        if (report.state === 'running') {
          // A host ready only after the provisioning deadline is too late: the deadline job
          // cancels (booked) or fails it.
          if (state === 'provisioning' && at >= instance.provisioningDeadline) return ignored;
          const c = report.connection ?? {};
          moved = await instancesRepo.transition(tx, instance.id, [state], 'running', at, {
            ...(instance.readyAt === null ? { readyAt: at } : {}),
            ...(c.sshHost !== undefined ? { sshHost: c.sshHost } : {}),
            ...(c.sshPort !== undefined ? { sshPort: c.sshPort } : {}),
            ...(c.sshUsername !== undefined ? { sshUsername: c.sshUsername } : {}),
            ...(c.vncAddress !== undefined ? { vncAddress: c.vncAddress } : {}),
            sshHostKey: c.sshHostKey ?? null,
            sshHostKeyFingerprint: c.sshHostKeyFingerprint ?? null,
          });
          if (moved && state === 'provisioning' && instance.billingPlan === 'booked') {
            told.push({ kind: 'ready', instanceId: instance.id, userId: instance.userId });
          }
        } else if (report.state === 'stopped' || report.state === 'terminated') {
          moved = await instancesRepo.transition(tx, instance.id, [state], report.state, at);
        } else {
          const how = { at, by: 'host_failed' as const, to: 'failed' as const };
          if (state === 'terminating') {
            moved = await instancesRepo.transition(tx, instance.id, [state], 'failed', at);
          } else if (instance.billingPlan === 'booked') {
            moved = await settleBooked(tx, instance, how);
          } else {
            moved = await endMetered(tx, instance, how);
          }
        }
        return { accepted: moved !== null, generation: moved?.generation ?? instance.generation };
      }, told);
      return outcome;
    },

    /** Instances a host has yet to converge: its desired-state list. */
    pendingOnHost: (hostId: string, limit = 100) => instancesRepo.pendingOnHost(db, hostId, limit),
    /** The lowest SSH port in a range that no live instance uses (hosts assign ports). */
    freePort: (first: number, last: number) => instancesRepo.freePort(db, first, last),

    /** The user's rentals (booked plan), newest first. */
    listRentalsByUser: (userId: string) => instancesRepo.list(db, { userId }, 'booked'),
    listRentalsByProvider: (providerId: number) => instancesRepo.list(db, { providerId }, 'booked'),
    listMeteredByUser: (userId: string) => instancesRepo.list(db, { userId }, 'metered'),
    /** The public API's list: one user's instances of both plans, newest first, a page at a time. */
    listPageByUser: (
      userId: string,
      page: { status?: InstanceState; beforeId?: number; limit: number },
    ) => instancesRepo.listPage(db, userId, page),
    /** One of the caller's instances; another user's is as good as missing (404). */
    async getOwn(userId: string, id: number): Promise<InstanceRow> {
      const row = await instancesRepo.findView(db, id);
      if (!row || row.instance.userId !== userId) throw notFound('Instance');
      return row;
    },
    /** Instances of a user that still exist, counted in the caller's transaction when given. */
    countLiveByUser: (userId: string, conn: Conn = db) =>
      instancesRepo.countLiveByUser(conn, userId),

    /** Job: cancels (booked) or fails (metered) instances not ready by their deadline. */
    async failOverdueProvisioning(now: Date, batch = 50): Promise<number> {
      const told: InstanceEvent[] = [];
      return afterCommit(async (tx) => {
        const due = await instancesRepo.claimDue(tx, 'deadline', now, batch);
        for (const instance of due) {
          const how = { at: now, by: 'provisioning_timeout' as const };
          if (instance.billingPlan === 'booked') {
            await settleBooked(tx, instance, { ...how, to: 'failed' });
            told.push({ kind: 'timed_out', instanceId: instance.id, userId: instance.userId });
          } else {
            await endMetered(tx, instance, { ...how, to: 'failed' });
          }
        }
        return due.length;
      }, told);
    },

    /**
     * Job: instances whose host has been unreachable for `afterMs` (20 minutes) fail. A booked
     * one is settled, its unreachable time refunded; a metered one ends (its dark minutes were
     * never charged). The host is told to delete it if it ever comes back.
     */
    async failUnreachable(now: Date, afterMs: number, batch = 50): Promise<number> {
      const told: InstanceEvent[] = [];
      return afterCommit(async (tx) => {
        const due = await instancesRepo.claimDue(tx, 'unreachable', now, batch, afterMs);
        for (const instance of due) {
          const how = { at: now, by: 'host_failed' as const, to: 'failed' as const };
          if (instance.billingPlan === 'booked') await settleBooked(tx, instance, how);
          else await endMetered(tx, instance, how);
          told.push({ kind: 'host_failed', instanceId: instance.id, userId: instance.userId });
        }
        return due.length;
      }, told);
    },

    /** Job: completes booked instances at the end of their hours. */
    async expireBooked(now: Date, batch = 50): Promise<number> {
      const told: InstanceEvent[] = [];
      return afterCommit(async (tx) => {
        const due = await instancesRepo.claimDue(tx, 'expiry', now, batch);
        for (const instance of due) {
          await settleBooked(tx, instance, {
            at: instance.endsAt ?? now,
            by: 'expiry',
            to: stateAfter('terminate', instance.hostId !== null),
          });
          told.push({ kind: 'expired', instanceId: instance.id, userId: instance.userId });
        }
        return due.length;
      }, told);
    },

    /** One of the user's instances with its view (404 for anyone else's, as if absent). */
    async findOwn(userId: string, id: number, what = 'Instance'): Promise<InstanceRow> {
      const row = await instancesRepo.findView(db, id);
      if (!row || row.instance.userId !== userId) throw notFound(what);
      return row;
    },

    /**
     * What the web console connects to: the caller's instance (someone else's is not found),
     * running, with an SSH address and the platform's key; otherwise 409 saying why not.
     */
    async consoleTarget(userId: string, id: number): Promise<ConsoleTarget> {
      const row = await instancesRepo.findView(db, id);
      if (!row || row.instance.userId !== userId) throw notFound('Instance');
      const instance = row.instance;
      if (instance.status !== 'running') {
        throw conflict(`The instance is ${instance.status}, not running.`, {
          state: instance.status,
        });
      }
      if (!instance.sshHost || !instance.sshPort) {
        throw conflict('The instance has not reported its SSH address yet.', { state: 'running' });
      }
      if (!instance.platformSshPrivateKey) {
        throw conflict('This instance has no web console key; connect over SSH instead.', {
          state: 'running',
        });
      }
      return {
        instanceId: instance.id,
        generation: instance.generation,
        host: instance.sshHost,
        port: instance.sshPort,
        username: instance.sshUsername,
        privateKey: instance.platformSshPrivateKey,
        hostKey: instance.sshHostKey,
      };
    },

    /** An instance's status now, null when there is no such instance (the console polls it). */
    async statusOf(id: number): Promise<InstanceState | null> {
      const row = await instancesRepo.findView(db, id);
      return row ? stateOf(row.instance) : null;
    },
  };
}

export type InstancesService = ReturnType<typeof createInstancesService>;
