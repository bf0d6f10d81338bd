import {
  allowedActions,
  canAct,
  holdsUnit,
  LIVE_STATES,
} from '../../../../shared/rules/instance-lifecycle';
import {
  computeMinuteMicros,
  oneHourMicros,
  storageMinuteMicros,
} from '../../../../shared/rules/metering';
import type { Tx } from '../../../db/client';
import {
  capacityUnavailable,
  gpusInUse,
  insufficientCredits,
  invalidStateTransition,
} from '../../../lib/errors';
import { ledgerService } from '../../ledger/service';
import { listingsService } from '../../listings/service';
import { spendCapsService } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import { ENDINGS } from './end-reasons';
import { chargeMeteredMinute } from './metered-minute';
import { chargeOpeningStorage, chargeReadyMinute, refundNeverReady } from './metered-opening';
import { meteredSql } from './metered-sql';
import { stopMetered } from './metered-stop';
import { meteredTerms } from './metered-terms';
import type { BillingPlan, PlanTerms } from './plan';

/** The wallet must hold one hour at the instance's rate (compute and storage). */
async function requireOneHour(tx: Tx, userId: string, rate: bigint, storageGb: number) {
  const required = oneHourMicros(rate, storageGb);
  const available = await ledgerService.walletBalance(tx, userId);
  if (available < required) throw insufficientCredits(required, available);
}

/** How a per-minute plan differs from the metered plan: its words and capabilities, its rate. */
export interface PerMinuteOptions {
  terms: PlanTerms;
  /** Its hourly rate from its listing's (the metered plan: the listing's own). */
  rateOf?: (listingRateMicros: bigint) => bigint;
}

/**
 * The metered plan (docs/decisions/007, 026): VMs, containers, deploys and API instances
 * without a duration. The wallet must hold one hour to open or start one. Storage is paid from
 * create (its first minute at once); compute from the moment the instance is ready (its first
 * minute at once, then the worker charges each next minute at its start), never for an image
 * download, a boot or a start; a stop keeps the disk; an end gives nothing back, unless it was
 * never ready: then everything comes back.
 */
export const createMeteredPlan = (ctx: InstancesContext): BillingPlan =>
  createPerMinutePlan(ctx, { terms: meteredTerms });

/**
 * A plan charged by the minute, as the metered plan is; another one (its own rate, its own
 * capabilities) is made from here with its own terms (plans/contract.test.ts makes one).
 */
export function createPerMinutePlan(ctx: InstancesContext, options: PerMinuteOptions): BillingPlan {
  const { config } = ctx;
  const { terms } = options;
  const refuse = (instance: Instance, action: 'start' | 'stop') => {
    const state = stateOf(instance);
    return invalidStateTransition(action, state, allowedActions(state));
  };

  return {
    name: terms.name,
    terms,

    rateOf: options.rateOf ?? ((listingRate) => listingRate),

    /** The wallet must hold one hour at the instance's rate, compute and storage. */
    async admit(tx, opening) {
      await requireOneHour(tx, opening.userId, opening.rateMicros, opening.ask.storageGb ?? 0);
    },

    columns({ ask, now }) {
      return {
        storageGb: ask.storageGb ?? 0,
        paidThrough: now,
        stopAt: ask.deadlines?.stopAt ?? null,
        terminateAt: ask.deadlines?.terminateAt ?? null,
        ...(ask.idleStop
          ? {
              idleStopMinutes: ask.idleStop.minutes,
              idleThresholdPercent: ask.idleStop.thresholdPercent,
            }
          : {}),
      };
    },

    /**
     * The first storage minute, at once (the caps must leave room for the compute minute that
     * readiness will charge); the worker charges the next ones.
     */
    opened: (tx, instance, opening) => chargeOpeningStorage(ctx, tx, instance, opening.now),

    unitTaken: gpusInUse,

    /**
     * Starts a stopped instance: one hour of balance, room under the spend caps for its first
     * minute and a free unit needed. Nothing is charged until it is ready again (its storage
     * minutes go on as while it was stopped).
     */
    async start(tx, instance, now) {
      await requireOneHour(tx, instance.userId, instance.hourlyRateMicros, instance.storageGb);
      await spendCapsService.countCharge(
        tx,
        { userId: instance.userId, apiKeyId: instance.apiKeyId },
        0n,
        now,
        computeMinuteMicros(instance.hourlyRateMicros) + storageMinuteMicros(instance.storageGb),
      );
      const pool = await listingsService.takeUnit(tx, instance.gpuListingId, instance.kind);
      if (!pool) throw capacityUnavailable();
      // Its GPU, under the host's lock the take holds (ADR 020), written with the start.
      const gpuIndexes = await listingsService.chooseGpu(tx, instance, capacityUnavailable, pool);
      const moved = await instancesRepo.transition(tx, instance.id, ['stopped'], 'starting', now, {
        endReason: null,
        idleWarnedAt: null,
        provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
        gpuIndexes,
      });
      if (!moved) throw refuse(instance, 'start');
      return moved;
    },

    /**
     * It has just become ready (running, row locked): its first compute minute is charged now.
     * A wallet that cannot pay it, or a cap it would cross, stops it at once (disk kept) and
     * its end reason says why, as when a later minute could not be paid.
     */
    async ready(tx, instance, now) {
      const charged = await chargeReadyMinute(ctx, tx, instance, now);
      if ('instance' in charged) return charged.instance;
      const stopped = await ctx.stopLocked(tx, instance, now, ENDINGS[charged.refused].reason);
      if (charged.refused === 'outOfCredits') {
        await meteredSql.markStoppedForCredits(tx, instance.userId, now, 1);
      }
      return stopped;
    },

    /** Compute stops being charged and its unit goes back; the disk stays. */
    async stop(tx, instance, now, by) {
      if (!canAct(stateOf(instance), 'stop')) throw refuse(instance, 'stop');
      // The system's stops (a deadline, idle) say why in the same change: its event carries it.
      return stopMetered(tx, instance, now, by === 'user' || by === 'api' ? null : by);
    },

    /**
     * Its unit back if it held one; minutes already paid stay paid, unless it was never ready
     * (its host could not create it, it timed out, or its renter ended it first): then every
     * minute is given back (a create that never becomes ready costs nothing).
     */
    async end(tx, instance, how) {
      await refundNeverReady(ctx, tx, instance);
      if (holdsUnit(stateOf(instance)))
        await listingsService.releaseUnit(tx, instance.gpuListingId);
      const moved = await instancesRepo.transition(tx, instance.id, LIVE_STATES, how.to, how.at, {
        endTime: how.at,
        endReason: how.by,
      });
      if (!moved) throw new Error(`instance ${instance.id} changed under its lock`);
      return moved;
    },

    chargeDue: (now, batch) => chargeMeteredMinute(ctx, terms.name, now, batch),
  };
}
