import { allowedActions, canAct } from '../../../../shared/rules/instance-lifecycle';
import { dollarsToMicros } from '../../../../shared/rules/money';
import {
  bookedCostMicros,
  quoteRental,
  STORAGE_ADDON_MICROS,
  sameDollars,
} from '../../../../shared/rules/pricing';
import {
  badRequest,
  invalidStateTransition,
  listingUnavailable,
  quoteMismatch,
} from '../../../lib/errors';
import { spendCapsService as spendCaps } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { stateOf } from '../states';
import { settleBooked, settleBookedAtOnce } from './booked-settlement';
import { bookedSql } from './booked-sql';
import { bookedTerms } from './booked-terms';
import { ending, renterEnding } from './end-reasons';
import type { BillingPlan, Opening } from './plan';

/**
 * The booked plan (docs/decisions/004, 007): hours paid up front into escrow, the storage
 * add-on charged as its own line; at the end the used time (by the second) goes to the
 * provider less the platform fee and the rest comes back. A stop ends it.
 */
export function createBookedPlan(ctx: InstancesContext): BillingPlan {
  const { accounts } = ctx;

  /** The booked cost at the rate the client was shown (the server's quote when none). */
  function bookedOf(opening: Opening) {
    const hours = opening.ask.hours ?? 0;
    const quote = opening.ask.quote ?? quoteRental(opening.found.listing.hourlyRateMicros, hours);
    return {
      hours,
      quote,
      bookedMicros: bookedCostMicros(dollarsToMicros(quote.hourlyRate), hours),
    };
  }

  return {
    name: 'booked',
    terms: bookedTerms,

    rateOf: (listingRate) => listingRate,

    /**
     * The server's quote must match what the client showed (its provider, rate and total);
     * the rent is then paid at that rate.
     */
    async admit(_tx, opening) {
      const { listing } = opening.found;
      const { providerId, hours = 0 } = opening.ask;
      if (providerId !== undefined && providerId !== listing.providerId) {
        throw badRequest('providerId does not match the listing.', {
          fields: { providerId: ['Does not match the listing'] },
        });
      }
      const quote = quoteRental(listing.hourlyRateMicros, hours);
      const shown = opening.ask.quote;
      if (
        shown &&
        (!sameDollars(shown.hourlyRate, quote.hourlyRate) ||
          !sameDollars(shown.totalCost, quote.totalCost))
      ) {
        throw quoteMismatch({ ...quote });
      }
    },

    columns(opening) {
      const { hours, bookedMicros } = bookedOf(opening);
      return {
        durationHours: hours,
        bookedCostMicros: bookedMicros,
        storageFeeMicros: STORAGE_ADDON_MICROS,
        // Its hours run from ready (beginHours); until then they end as if begun now.
        endsAt: new Date(opening.now.getTime() + hours * 3_600_000),
      };
    },

    /**
     * The booked cost moves from the wallet to escrow and the storage add-on is charged as its
     * own line; what left the wallet counts toward the spend caps (one it would cross, 402).
     */
    async opened(tx, instance, opening) {
      const { hours, bookedMicros } = bookedOf(opening);
      // One statement: the posting, then the counters (docs/architecture.md, issue 43).
      await spendCaps.postCounted(
        tx,
        {
          kind: 'rental_start',
          memo: `Rental ${instance.id}: ${hours} h of ${opening.found.listing.model} held in escrow, storage add-on charged`,
          reference: `rental:${instance.id}`,
          lines: [
            {
              accountId: await accounts.wallet(tx, instance.userId),
              amountMicros: -(bookedMicros + STORAGE_ADDON_MICROS),
            },
            {
              accountId: await accounts.system(tx, 'escrow'),
              amountMicros: bookedMicros,
              system: true,
            },
            {
              accountId: await accounts.system(tx, 'platform_revenue'),
              amountMicros: STORAGE_ADDON_MICROS,
              system: true,
            },
          ],
        },
        { userId: instance.userId, apiKeyId: instance.apiKeyId },
        opening.now,
      );
      return instance;
    },

    unitTaken: listingUnavailable,

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

    /** The same, settled in one statement when it can be (settleBookedAtOnce). */
    async stopAtOnce(conn, instance, now, by) {
      if (!canAct(stateOf(instance), 'terminate')) return null;
      return settleBookedAtOnce(ctx, conn, instance, renterEnding(by, instance, now));
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
