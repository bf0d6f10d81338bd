import {
  fitShape,
  type GpuShare,
  shapeBeyondShare,
  shownShare,
} from '../../../../shared/rules/gpu-share';
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
  hostNotReady,
  hostOffline,
  insufficientCredits,
  invalidStateTransition,
  listingGpusMissing,
  notFound,
  validationFailed,
} from '../../../lib/errors';
import { kindBlocker } from '../../hosts/kind-readiness';
import { ledgerService } from '../../ledger/service';
import { listingShare } from '../../listings/gpu-share';
import { listingsService } from '../../listings/service';
import { spendCapsService } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { CreateMeteredInput } from '../types';
import { ENDINGS } from './end-reasons';
import { chargeMeteredMinute } from './metered-minute';
import { chargeOpeningStorage, chargeReadyMinute, refundNeverReady } from './metered-opening';
import { meteredSql } from './metered-sql';
import { stopMetered } from './metered-stop';
import type { BillingPlan } from './plan';

/**
 * The shape the guest will really have: what was asked (or the template's), fitted to one
 * GPU's share of the listing's host (shared/rules/gpu-share.ts). A field the renter named
 * (`askedShape`) beyond the share is refused, the maximum in the message, before anything is
 * taken or charged. No share known (no host has reported): as asked, capped when it boots.
 */
function shapeWithinShare(
  input: CreateMeteredInput,
  share: GpuShare | null,
): { cpus?: number; memoryGb?: number; memoryMib?: number } {
  const asked = {
    ...(input.cpus !== undefined ? { cpus: input.cpus } : {}),
    ...(input.memoryGb !== undefined ? { memoryGb: input.memoryGb } : {}),
  };
  if (!share) return asked;
  const beyond = shapeBeyondShare(input.askedShape ?? {}, shownShare(share));
  if (Object.keys(beyond).length > 0) {
    throw validationFailed(
      Object.fromEntries(Object.entries(beyond).map(([field, message]) => [field, [message]])),
    );
  }
  const fitted = fitShape(
    { cpus: input.cpus ?? DEFAULT_CPUS, memoryMib: (input.memoryGb ?? DEFAULT_MEMORY_GB) * 1024 },
    share,
  );
  return { ...asked, cpus: fitted.cpus, memoryMib: fitted.memoryMib };
}

/** An instance's shape when nothing names one (the instances table's defaults). */
const DEFAULT_CPUS = 8;
const DEFAULT_MEMORY_GB = 32;

/** The wallet must hold one hour at the instance's rate (compute and storage). */
async function requireOneHour(tx: Tx, userId: string, rate: bigint, storageGb: number) {
  const required = oneHourMicros(rate, storageGb);
  const available = await ledgerService.walletBalance(tx, userId);
  if (available < required) throw insufficientCredits(required, available);
}

/**
 * The metered plan (docs/decisions/007, 026): VMs, containers, deploys and API instances
 * without a duration. The wallet must hold one hour to open or start one. Storage is paid from
 * create (its first minute at once); compute from the moment the instance is ready (its first
 * minute at once, then the worker charges each next minute at its start), never for an image
 * download, a boot or a start; a stop keeps the disk; an end gives nothing back, unless it was
 * never ready: then everything comes back.
 */
export function createMeteredPlan(ctx: InstancesContext): BillingPlan {
  const { config } = ctx;
  const refuse = (instance: Instance, action: 'start' | 'stop') => {
    const state = stateOf(instance);
    return invalidStateTransition(action, state, allowedActions(state));
  };

  return {
    name: 'metered',

    /**
     * A unit is taken and the wallet must hold one hour at the instance's rate. The first
     * storage minute is charged in the same transaction (and the caps must leave room for the
     * compute minute that readiness will charge); the worker charges the next ones.
     */
    async open(userId, terms, now, options = {}) {
      if (terms.plan !== 'metered') throw new Error('metered plan opened with other terms');
      const input = terms;
      const kind = input.kind ?? 'vm';
      return ctx.accounts.transact(async (tx) => {
        const found = await listingsService.findById(tx, input.gpuListingId);
        if (!found) throw notFound('GPU listing');
        const shape = shapeWithinShare(input, listingShare(found.listing, found.hostMachine));
        const rate = found.listing.hourlyRateMicros;
        await requireOneHour(tx, userId, rate, input.storageGb);
        if (found.hostStatus === 'offline' || found.hostStatus === 'none') {
          throw hostOffline(found.hostStatus);
        }
        // Before anything is taken or charged: a host that cannot run its kind is 409 with why
        // (its own reason first, then a GPU it lost); reserveUnit checks the same in its SQL.
        const blocker = kindBlocker(
          found.hostReadiness,
          kind,
          found.listing.hostGpuIndexes,
          found.hostStatus === 'demo',
        );
        if (blocker) throw hostNotReady(blocker, kind);
        if (found.listing.gpuProblem) throw listingGpusMissing(found.listing.gpuProblem);
        // A sandbox listing is taken by its owner only (the guard is inside reserveUnit).
        const listing = await listingsService.reserveUnit(
          tx,
          found.listing.id,
          rate,
          undefined,
          userId,
          kind,
        );
        // None free (taken since it was read): no instance exists, so none "stays stopped".
        if (!listing) throw gpusInUse();
        const instance = await instancesRepo.insert(tx, {
          userId,
          gpuListingId: listing.id,
          providerId: listing.providerId,
          hostId: listing.hostId,
          source: input.source,
          kind,
          containerImage: kind === 'container' ? (input.containerImage ?? null) : null,
          // A container's root is not its host's (a user namespace): renters log in as root.
          ...(kind === 'container' ? { sshUsername: 'root' } : {}),
          template: input.template ?? null,
          ...shape,
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
          stopAt: input.deadlines?.stopAt ?? null,
          terminateAt: input.deadlines?.terminateAt ?? null,
          ...(input.idleStop
            ? {
                idleStopMinutes: input.idleStop.minutes,
                idleThresholdPercent: input.idleStop.thresholdPercent,
              }
            : {}),
        });
        // Its GPU, under the host's lock: none free rolls everything back (ADR 020).
        const gpuIndexes = await listingsService.assignGpu(tx, instance, gpusInUse, listing.pool);
        // The paid minute counts toward the spend caps: one it would cross is refused (402).
        await chargeOpeningStorage(
          ctx,
          tx,
          { ...instance, gpuIndexes },
          now,
          options.apiKeyId ?? null,
        );
        const row = await instancesRepo.findView(tx, instance.id);
        if (!row) throw new Error('instance vanished');
        await options.record?.(tx, row);
        return row;
      });
    },

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
        null, // not a launch: nothing to mark
        0n,
        now,
        computeMinuteMicros(instance.hourlyRateMicros) + storageMinuteMicros(instance.storageGb),
      );
      const pool = await listingsService.takeUnit(tx, instance.gpuListingId, instance.kind);
      if (!pool) throw capacityUnavailable();
      const moved = await instancesRepo.transition(tx, instance.id, ['stopped'], 'starting', now, {
        endReason: null,
        idleWarnedAt: null,
        provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
      });
      if (!moved) throw refuse(instance, 'start');
      const gpuIndexes = await listingsService.assignGpu(tx, moved, capacityUnavailable, pool);
      return { ...moved, gpuIndexes };
    },

    /**
     * It has just become ready (running, row locked): its first compute minute is charged now.
     * A wallet that cannot pay it, or a cap it would cross, stops it at once (disk kept) and
     * its end reason says why, as when a later minute could not be paid.
     */
    async ready(tx, instance, now) {
      const charged = await chargeReadyMinute(ctx, tx, instance, now);
      if ('instance' in charged) return charged.instance;
      const stopped = await stopMetered(tx, instance, now, ENDINGS[charged.refused].reason);
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

    chargeDue: (now, batch) => chargeMeteredMinute(ctx, now, batch),
  };
}
