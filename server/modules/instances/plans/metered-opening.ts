import {
  computeMinuteMicros,
  MINUTE_MS,
  minuteIndex,
  storageMinuteMicros,
} from '../../../../shared/rules/metering';
import { splitEarnings } from '../../../../shared/rules/pricing';
import type { Tx } from '../../../db/client';
import { AppError } from '../../../lib/errors';
import type { LedgerLine } from '../../ledger/service';
import { ledgerService } from '../../ledger/service';
import { spendCapsService } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import { meteredSql } from './metered-sql';

/**
 * The two charges a metered instance pays at once, in the transaction that changes its state
 * (issue 39, part 1: billing from ready):
 * - **on create**, its first storage minute — storage is charged from create;
 * - **when it becomes ready** (its host's verified login, docs/decisions/015: provisioning or
 *   starting → running), its first compute minute — compute is charged from ready, never for
 *   an image download, a boot or a start. Paid time then runs a minute from that moment, and
 *   the worker charges each next minute at its start (plans/metered-minute.ts).
 * Each goes through the spend caps' one count (spendCapsService.countCharge).
 */

/** The key of the storage minute a create opens with (one per instance: generation 1). */
export const openingMinuteKey = (instance: Pick<Instance, 'id' | 'generation'>) =>
  `metered:${instance.id}:start:${instance.generation}`;

/** The key of the compute minute a readiness begins: one per state change into running. */
export const readyMinuteKey = (instance: Pick<Instance, 'id' | 'generation'>) =>
  `metered:${instance.id}:ready:${instance.generation}`;

interface MinuteNow {
  computeMinutes: number;
  storageMinutes: number;
  key: string;
  memo: string;
}

/** Posts one charge of whole minutes and moves paid time to a minute from `now`. */
async function postMinutes(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
  now: Date,
  what: MinuteNow,
): Promise<{ instance: Instance; micros: bigint }> {
  const { accounts, config } = ctx;
  const computeMicros =
    BigInt(what.computeMinutes) * computeMinuteMicros(instance.hourlyRateMicros);
  const storageMicros = BigInt(what.storageMinutes) * storageMinuteMicros(instance.storageGb);
  const total = computeMicros + storageMicros;
  const { providerMicros, feeMicros } = splitEarnings(computeMicros, config.platformFeeBps);
  const lines: LedgerLine[] = [
    { accountId: await accounts.wallet(tx, instance.userId), amountMicros: -total },
    { accountId: await accounts.earnings(tx, instance.providerId), amountMicros: providerMicros },
    {
      accountId: await accounts.system(tx, 'platform_revenue'),
      amountMicros: feeMicros + storageMicros,
      system: true,
    },
  ];
  const posted =
    total === 0n
      ? null
      : await ledgerService.post(tx, {
          kind: 'metered_minute',
          memo: what.memo,
          idempotencyKey: what.key,
          reference: `instance:${instance.id}`,
          lines,
        });
  // A key used before (never, short of a replay) moves paid time on without counting again.
  const counted = posted !== null;
  const moved = await meteredSql.recordOpeningMinute(
    tx,
    instance.id,
    new Date(now.getTime() + MINUTE_MS),
    {
      compute: counted ? what.computeMinutes : 0,
      storage: counted ? what.storageMinutes : 0,
      charged: counted ? total : 0n,
    },
  );
  if (!moved) throw new Error(`instance ${instance.id} vanished under its lock`);
  return { instance: moved, micros: counted ? total : 0n };
}

/**
 * A create's first storage minute, at once (the instance just inserted): counted toward the
 * spend caps with room left for the compute minute its readiness will charge, so a create the
 * caps could not let run is refused 402 SPEND_CAP_REACHED before anything stays. Throws
 * INSUFFICIENT_CREDITS (rolling the create back) when the wallet cannot pay.
 */
export async function chargeOpeningStorage(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
  now: Date,
): Promise<Instance> {
  const charged = await postMinutes(ctx, tx, instance, now, {
    computeMinutes: 0,
    storageMinutes: 1,
    key: openingMinuteKey(instance),
    memo: `Instance ${instance.id}: minute ${minuteIndex(now)} (storage, from its create)`,
  });
  await spendCapsService.countCharge(
    tx,
    { userId: instance.userId, apiKeyId: instance.apiKeyId },
    charged.micros,
    now,
    computeMinuteMicros(instance.hourlyRateMicros),
  );
  return charged.instance;
}

/** Why a ready instance's first compute minute could not be charged. */
export type ReadyRefusal = 'spendCap' | 'outOfCredits';

/**
 * The first compute minute of an instance that has just become ready (the caller moved it to
 * running, row locked), with the storage minutes that came due and the worker has not charged
 * yet (none while its host is dark). A storage minute already paid past `now` is not charged
 * again: the seconds between it and the new minute are free. In a savepoint: a wallet that
 * cannot pay or a cap it would cross charges nothing and answers why (the caller stops it).
 */
export async function chargeReadyMinute(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
  now: Date,
): Promise<{ instance: Instance } | { refused: ReadyRefusal }> {
  const paid = instance.paidThrough;
  const overdue =
    paid !== null && instance.unreachableSince === null && paid < now
      ? Math.ceil((now.getTime() - paid.getTime()) / MINUTE_MS)
      : 0;
  try {
    return await tx.transaction(async (sp) => {
      const charged = await postMinutes(ctx, sp, instance, now, {
        computeMinutes: 1,
        storageMinutes: overdue,
        key: readyMinuteKey(instance),
        memo: `Instance ${instance.id}: minute ${minuteIndex(now)} (compute from its readiness${overdue > 0 ? `; ${overdue} storage minute(s) due before it` : ''})`,
      });
      await spendCapsService.countCharge(
        sp,
        { userId: instance.userId, apiKeyId: instance.apiKeyId },
        charged.micros,
        now,
      );
      return { instance: charged.instance };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'SPEND_CAP_REACHED') {
      return { refused: 'spendCap' };
    }
    if (error instanceof AppError && error.code === 'INSUFFICIENT_CREDITS') {
      return { refused: 'outOfCredits' };
    }
    throw error;
  }
}

/**
 * An instance that ends without ever having been ready (its host could not create it, it timed
 * out provisioning, or its renter gave up on it) is charged nothing: every minute it paid
 * (its storage minutes) is given back, as one reversing `metered_minute` transaction with each
 * minute's own split, and its counters go to zero.
 */
export async function refundNeverReady(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
): Promise<void> {
  if (instance.readyAt !== null || instance.chargedMicros === 0n) return;
  const { accounts, config } = ctx;
  const perCompute = computeMinuteMicros(instance.hourlyRateMicros);
  const { providerMicros, feeMicros } = splitEarnings(perCompute, config.platformFeeBps);
  const computeMinutes = BigInt(instance.computeMinutes);
  const storageTotal = BigInt(instance.storageMinutes) * storageMinuteMicros(instance.storageGb);
  const total = computeMinutes * perCompute + storageTotal;
  if (total !== instance.chargedMicros)
    throw new Error(`instance ${instance.id}: charges out of step`);
  await ledgerService.post(tx, {
    kind: 'metered_minute',
    memo: `Instance ${instance.id}: ${instance.storageMinutes} minute(s) given back (it was never ready)`,
    idempotencyKey: `metered:${instance.id}:refund`,
    reference: `instance:${instance.id}`,
    lines: [
      { accountId: await accounts.wallet(tx, instance.userId), amountMicros: total },
      {
        accountId: await accounts.earnings(tx, instance.providerId),
        amountMicros: -computeMinutes * providerMicros,
      },
      {
        accountId: await accounts.system(tx, 'platform_revenue'),
        amountMicros: -(computeMinutes * feeMicros + storageTotal),
        system: true,
      },
    ],
  });
  await meteredSql.clearCharges(tx, instance.id);
}
