import { endReasonWords } from '../../../../shared/rules/end-reasons';
import { holdsUnit, LIVE_STATES } from '../../../../shared/rules/instance-lifecycle';
import { splitEarnings, usedCostMicros } from '../../../../shared/rules/pricing';
import type { Tx } from '../../../db/client';
import { ledgerService, type Posting, preparePosting } from '../../ledger/service';
import type { InstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { EndReason } from '../types';
import { bookedSql } from './booked-sql';
import type { Ending } from './plan';

/** Seconds an instance's host was unreachable up to `end` (closed outages plus an open one). */
function unreachableSecondsUntil(instance: Instance, end: Date): number {
  const open =
    instance.unreachableSince !== null && instance.unreachableSince < end
      ? Math.floor((end.getTime() - instance.unreachableSince.getTime()) / 1000)
      : 0;
  return instance.unreachableSeconds + open;
}

/**
 * Ends a booked instance inside the caller's transaction (the row locked). Completed:
 * the used time's cost (by the second, rounded up to the cent) goes to the provider less
 * the platform fee, the rest of the escrow back to the wallet. Never ready: everything,
 * storage included, goes back to the wallet.
 */
export async function settleBooked(
  ctx: Pick<InstancesContext, 'accounts' | 'config'>,
  tx: Tx,
  instance: Instance,
  how: Ending,
): Promise<Instance> {
  const wallet = await ctx.accounts.wallet(tx, instance.userId);
  const escrowId = await ctx.accounts.system(tx, 'escrow');
  const platformId = await ctx.accounts.system(tx, 'platform_revenue');
  const booked = instance.bookedCostMicros;
  const reference = `rental:${instance.id}`;
  let posting: Posting;
  let changes: {
    endTime: Date;
    usedSeconds: number;
    usedCostMicros: bigint;
    refundMicros: bigint;
    platformFeeMicros: bigint;
    endReason: EndReason;
  };
  if (instance.readyAt === null) {
    posting = {
      kind: 'rental_cancel',
      memo: `Full refund: rental ${instance.id} cancelled (${endReasonWords(how.by)})`,
      reference,
      lines: [
        { accountId: escrowId, amountMicros: -booked, system: true },
        { accountId: platformId, amountMicros: -instance.storageFeeMicros, system: true },
        { accountId: wallet, amountMicros: booked + instance.storageFeeMicros },
      ],
    };
    changes = {
      endTime: how.at,
      usedSeconds: 0,
      usedCostMicros: 0n,
      refundMicros: booked + instance.storageFeeMicros,
      platformFeeMicros: 0n,
      endReason: how.by,
    };
  } else {
    const endsAt = instance.endsAt ?? how.at;
    const end = how.at < endsAt ? how.at : endsAt;
    // Time its host was unreachable is not billed (docs/rules.md, Money; ADR 011): refunded here.
    const unreachableSeconds = unreachableSecondsUntil(instance, end);
    // Its hours run from when it was ready (issue 39): the download and boot are not billed.
    const usedSeconds = Math.max(
      0,
      Math.floor((end.getTime() - instance.readyAt.getTime()) / 1000) - unreachableSeconds,
    );
    const used = usedCostMicros(
      instance.hourlyRateMicros,
      usedSeconds,
      instance.durationHours ?? 0,
    );
    const { providerMicros, feeMicros } = splitEarnings(used, ctx.config.platformFeeBps);
    const providerId = await ctx.accounts.earnings(tx, instance.providerId);
    posting = {
      kind: 'rental_settle',
      memo: `Rental ${instance.id}: ${usedSeconds} s used${unreachableSeconds > 0 ? `, ${unreachableSeconds} s unreachable refunded` : ''} (${endReasonWords(how.by)})`,
      reference,
      lines: [
        { accountId: escrowId, amountMicros: -booked, system: true },
        { accountId: providerId, amountMicros: providerMicros },
        { accountId: platformId, amountMicros: feeMicros, system: true },
        { accountId: wallet, amountMicros: booked - used },
      ],
    };
    changes = {
      endTime: end,
      usedSeconds,
      usedCostMicros: used,
      refundMicros: booked - used,
      platformFeeMicros: feeMicros,
      endReason: how.by,
    };
  }
  // The instance ends, its unit goes back and the money moves in one statement; a second
  // cached balance (the provider's earnings beside the wallet) moves after, in id order.
  const prepared = preparePosting(posting);
  const settled = await bookedSql.settleBooked(tx, {
    id: instance.id,
    listingId: instance.gpuListingId,
    releaseUnit: holdsUnit(stateOf(instance)),
    to: how.to,
    at: how.at,
    changes,
    from: LIVE_STATES,
    posting: prepared,
  });
  if (!settled) throw new Error(`instance ${instance.id} changed under its lock`);
  ledgerService.checkMoved(prepared, settled.posted);
  if (settled.posted.id !== null) await ledgerService.moveAfter(tx, prepared);
  return settled.instance;
}
