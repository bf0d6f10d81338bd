import type { CreateRentalInput } from '../../../../shared/contracts/rentals';
import { listingBlocker } from '../../../../shared/rules/host-readiness';
import { allowedActions, canAct } from '../../../../shared/rules/instance-lifecycle';
import { dollarsToMicros, microsToDollars } from '../../../../shared/rules/money';
import {
  bookedCostMicros,
  quoteRental,
  STORAGE_ADDON_MICROS,
  sameDollars,
} from '../../../../shared/rules/pricing';
import {
  badRequest,
  gpusInUse,
  hostNotReady,
  hostOffline,
  invalidStateTransition,
  listingGpusMissing,
  listingUnavailable,
  notFound,
  quoteMismatch,
} from '../../../lib/errors';
import { ledgerService, prepareLines } from '../../ledger/service';
import { listingsService } from '../../listings/service';
import { spendCapsService as spendCaps } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { stateOf } from '../states';
import { settleBooked } from './booked-settlement';
import { bookedSql } from './booked-sql';
import { ending, renterEnding } from './end-reasons';
import type { BillingPlan } from './plan';

function parseDollars(value: string): bigint | null {
  try {
    return dollarsToMicros(value);
  } catch {
    return null;
  }
}

/**
 * The booked plan (docs/decisions/004, 007): hours paid up front into escrow, the storage
 * add-on charged as its own line; at the end the used time (by the second) goes to the
 * provider less the platform fee and the rest comes back. A stop ends it.
 */
export function createBookedPlan(ctx: InstancesContext): BillingPlan {
  const { db, accounts, config } = ctx;

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
    // The host's own reason first (no driver, no virtualisation), then a GPU it lost.
    const blocker = listingBlocker(found.hostReadiness, listing.hostGpuIndexes);
    if (blocker) return hostNotReady(blocker);
    if (listing.gpuProblem) return listingGpusMissing(listing.gpuProblem);
    return listingUnavailable();
  }

  return {
    name: 'booked',

    /**
     * Rents one unit: the server's quote must match what the client showed; in one
     * transaction a unit is taken, the booked cost moves from the wallet to escrow and the
     * storage add-on is charged as its own line.
     */
    async open(userId, terms, now, options = {}) {
      if (terms.plan !== 'booked') throw new Error('booked plan opened with other terms');
      const body = terms;
      const clientRate = parseDollars(body.hourlyRate);
      const booked = clientRate === null ? 0n : bookedCostMicros(clientRate, body.durationHours);
      // The common case is one statement: take a unit at the rate the client was shown, insert
      // the instance and post the money (bookedSql.rentBooked). Anything else (unknown
      // listing, changed price, a total that is not the quote, rented out) is explained after.
      const quoted = clientRate !== null && sameDollars(body.totalCost, microsToDollars(booked));
      const spender = { userId, apiKeyId: options.apiKeyId ?? null };
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
            const rented = await bookedSql.rentBooked(tx, {
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
            // What left the wallet (the escrow and the storage add-on) counts toward the spend
            // caps; one it would cross rolls all back (402).
            // Its GPU, under the host's lock: none free rolls the rent back (ADR 020).
            const gpuIndexes = await listingsService.assignGpu(
              tx,
              rented.row.instance,
              gpusInUse,
              rented.pool,
            );
            const instance = { ...rented.row.instance, gpuIndexes };
            await spendCaps.countCharge(
              tx,
              spender,
              instance.id,
              booked + STORAGE_ADDON_MICROS,
              now,
            );
            const row = { ...rented.row, instance: { ...instance, apiKeyId: spender.apiKeyId } };
            await options.record?.(tx, row);
            return row;
          });
      if (!created) throw await whyNotRentable(body, userId);
      return created;
    },

    /** A rental is never stopped, so never started again. */
    async start(_tx, instance) {
      const state = stateOf(instance);
      throw invalidStateTransition('start', state, allowedActions(state));
    },

    /** Its booked hours run from when it is ready, not from the rent (issue 39). */
    async ready(tx, instance, now) {
      return (await bookedSql.beginHours(tx, instance.id, now)) ?? instance;
    },

    /** A rental's stop ends it, settled; stopping an ended one changes nothing. */
    async stop(tx, instance, now, by) {
      if (!canAct(stateOf(instance), 'terminate')) return instance;
      return settleBooked(ctx, tx, instance, renterEnding(by, instance, now));
    },

    end: (tx, instance, how) => settleBooked(ctx, tx, instance, how),

    /** Job: completes booked instances at the end of their hours. */
    async chargeDue(now, batch) {
      return accounts.transact(async (tx) => {
        const due = await bookedSql.claimExpired(tx, now, batch);
        for (const instance of due) {
          await settleBooked(ctx, tx, instance, ending('expiry', instance, instance.endsAt ?? now));
        }
        return due.length;
      });
    },
  };
}
