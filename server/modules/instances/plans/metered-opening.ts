import { MINUTE_MS, minuteChargeMicros, minuteIndex } from '../../../../shared/rules/metering';
import { splitEarnings } from '../../../../shared/rules/pricing';
import type { Tx } from '../../../db/client';
import type { LedgerLine } from '../../ledger/service';
import { ledgerService } from '../../ledger/service';
import type { InstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import { meteredSql } from './metered-sql';

/**
 * The key of the minute an instance begins when it is created or started: one per state
 * change (`generation`), so a retried start never pays twice and no worker minute
 * (`metered:<id>:<minute>`) shares it.
 */
export const openingMinuteKey = (instance: Pick<Instance, 'id' | 'generation'>) =>
  `metered:${instance.id}:start:${instance.generation}`;

/**
 * Charges the minute an instance begins on create or start, at once and in the caller's
 * transaction (its row locked or just inserted): compute and storage, as one ledger
 * transaction of kind `metered_minute`; paid time then runs a minute from `now`, and the
 * worker charges each next minute at its start (docs/decisions/007). A storage minute
 * still running from a stop is not refunded: the start begins a new paid minute. Storage
 * minutes of a stopped instance that came due before the start and the worker has not
 * charged yet are charged with it, so none is skipped (none while its host is dark).
 * Throws INSUFFICIENT_CREDITS (rolling the create or start back) when the wallet cannot pay.
 */
export async function chargeOpeningMinute(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
  now: Date,
): Promise<Instance> {
  const { accounts, config } = ctx;
  const { computeMicros, storageMicros } = minuteChargeMicros(
    instance.hourlyRateMicros,
    instance.storageGb,
    true,
  );
  const paid = instance.paidThrough;
  const overdue =
    paid !== null && instance.unreachableSince === null && paid < now
      ? Math.ceil((now.getTime() - paid.getTime()) / MINUTE_MS)
      : 0;
  const storageTotal = storageMicros * BigInt(1 + overdue);
  const total = computeMicros + storageTotal;
  const { providerMicros, feeMicros } = splitEarnings(computeMicros, config.platformFeeBps);
  const lines: LedgerLine[] = [
    { accountId: await accounts.wallet(tx, instance.userId), amountMicros: -total },
    { accountId: await accounts.earnings(tx, instance.providerId), amountMicros: providerMicros },
    {
      accountId: await accounts.system(tx, 'platform_revenue'),
      amountMicros: feeMicros + storageTotal,
      system: true,
    },
  ];
  const posted = await ledgerService.post(tx, {
    kind: 'metered_minute',
    memo: `Instance ${instance.id}: minute ${minuteIndex(now)} (compute and storage, from its start${overdue > 0 ? `; ${overdue} storage minute(s) due before it` : ''})`,
    idempotencyKey: openingMinuteKey(instance),
    reference: `instance:${instance.id}`,
    lines,
  });
  const paidThrough = new Date(now.getTime() + MINUTE_MS);
  // A key used before (never, short of a replay) moves paid time on without counting again.
  const moved = await meteredSql.recordOpeningMinute(tx, instance.id, paidThrough, {
    compute: posted === null ? 0 : 1,
    storage: posted === null ? 0 : 1 + overdue,
    charged: posted === null ? 0n : total,
  });
  if (!moved) throw new Error(`instance ${instance.id} vanished under its lock`);
  return moved;
}

/**
 * An instance that failed without ever running (its host could not create it, or it timed
 * out provisioning) is charged nothing: every minute it paid is given back, as one reversing
 * `metered_minute` transaction with each minute's own split, and its counters go to zero.
 */
export async function refundNeverReady(
  ctx: InstancesContext,
  tx: Tx,
  instance: Instance,
): Promise<void> {
  if (instance.readyAt !== null || instance.chargedMicros === 0n) return;
  const { accounts, config } = ctx;
  const { computeMicros, storageMicros } = minuteChargeMicros(
    instance.hourlyRateMicros,
    instance.storageGb,
    true,
  );
  const { providerMicros, feeMicros } = splitEarnings(computeMicros, config.platformFeeBps);
  const computeMinutes = BigInt(instance.computeMinutes);
  const storageTotal = BigInt(instance.storageMinutes) * storageMicros;
  const total = computeMinutes * computeMicros + storageTotal;
  if (total !== instance.chargedMicros)
    throw new Error(`instance ${instance.id}: charges out of step`);
  await ledgerService.post(tx, {
    kind: 'metered_minute',
    memo: `Instance ${instance.id}: ${instance.computeMinutes} minute(s) given back (it never ran)`,
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
