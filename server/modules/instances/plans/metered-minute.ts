import { minuteChargeMicros, minuteIndex } from '../../../../shared/rules/metering';
import { splitEarnings } from '../../../../shared/rules/pricing';
import { type LedgerLine, ledgerService } from '../../ledger/service';
import { type CapReached, spendCapsService as spendCaps } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { outagesRepo } from '../host-side/outages-repo';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';
import { ENDINGS } from './end-reasons';
import { meteredSql } from './metered-sql';
import type { PlanName } from './plan';
import { stopForSpendCaps } from './spend-caps';

const spenderOf = (i: Instance) => ({ userId: i.userId, apiKeyId: i.apiKeyId });

/**
 * Job: charges the next minute of up to `batch` instances of one per-minute plan (`plan`:
 * the metered plan, or another made like it) whose paid time has run out. Each minute is its own ledger transaction keyed `metered:<id>:<minute>`,
 * written together in one statement. The minute an instance begins on create or readiness
 * was charged then (plans/metered-opening.ts), its paid time already a minute on, so it is
 * never claimed here. Compute is charged while the instance is running (from ready, issue 39:
 * never while it provisions or starts), storage always. A wallet that cannot pay a running
 * instance's minute stops it (never deletes it); storage it cannot pay is not charged. A
 * minute that begins after its host's last heartbeat waits (meteredSql.claimUnpaid): charged
 * once the host is heard again, let pass unbilled if it is marked offline meanwhile.
 */
export async function chargeMeteredMinute(
  ctx: InstancesContext,
  plan: PlanName,
  now: Date,
  batch = 500,
): Promise<number> {
  const { accounts, config } = ctx;
  const charged = await accounts.transact(async (tx) => {
    const due = await meteredSql.claimUnpaid(tx, plan, now, batch);
    if (due.length === 0) {
      return { count: 0, stops: [] as Instance[], reached: [] as CapReached[] };
    }
    const wallets = await accounts.wallets(
      tx,
      due.map((d) => d.userId),
    );
    const earnings = new Map<number, number>();
    for (const providerId of new Set(due.map((d) => d.providerId))) {
      earnings.set(providerId, await accounts.earnings(tx, providerId));
    }
    const platformId = await accounts.system(tx, 'platform_revenue');
    const balances = await ledgerService.lockBalances(
      tx,
      [...new Set([...wallets.values(), ...earnings.values()])].sort((a, b) => a - b),
    );
    // Spend caps, read after the wallets are locked: every charge moves its counters under them.
    const caps = await spendCaps.book(tx, due.map(spenderOf), now);
    const reached: CapReached[] = [];
    const postings: Parameters<typeof ledgerService.postMany>[1] = [];
    const minutes: {
      id: number;
      compute: number;
      storage: number;
      charged: bigint;
      key: string;
    }[] = [];
    const stops: Instance[] = [];
    const dark: { id: number; minutes: number }[] = [];
    for (const instance of due) {
      const wallet = wallets.get(instance.userId);
      const providerAccount = earnings.get(instance.providerId);
      if (wallet === undefined || providerAccount === undefined) continue;
      if (instance.unreachableSince !== null) {
        // Its host is dark: the minute passes unbilled, compute and storage alike, and is
        // counted on the instance's outage ("host unreachable — not charged").
        minutes.push({ id: instance.id, compute: 0, storage: 0, charged: 0n, key: '' });
        dark.push({ id: instance.id, minutes: 1 });
        continue;
      }
      // Compute from ready (issue 39): only a running instance's minute has it; storage always.
      const running = instance.status === 'running';
      let { computeMicros, storageMicros } = minuteChargeMicros(
        instance.hourlyRateMicros,
        instance.storageGb,
        running,
      );
      const balance = balances.get(wallet) ?? 0n;
      const over = computeMicros + storageMicros > balance;
      // A minute that would cross a spend cap is not charged (the caps count compute and
      // storage alike); its scope's running instances are stopped. Storage alone that would
      // cross one is let pass: the disk is kept, never charged beyond the cap.
      const capped = over ? null : caps.charge(spenderOf(instance), computeMicros + storageMicros);
      if (capped) {
        reached.push(capped);
        computeMicros = 0n;
        if (caps.charge(spenderOf(instance), storageMicros)) storageMicros = 0n;
      } else if (over) {
        if (running) stops.push(instance);
        computeMicros = 0n;
        if (storageMicros > balance || caps.charge(spenderOf(instance), storageMicros)) {
          storageMicros = 0n;
        }
      }
      const total = computeMicros + storageMicros;
      balances.set(wallet, balance - total);
      const minute = minuteIndex(instance.paidThrough ?? now);
      const key = `metered:${instance.id}:${minute}`;
      minutes.push({
        id: instance.id,
        compute: computeMicros > 0n ? 1 : 0,
        storage: storageMicros > 0n ? 1 : 0,
        charged: total,
        key,
      });
      if (total === 0n) continue;
      const { providerMicros, feeMicros } = splitEarnings(computeMicros, config.platformFeeBps);
      const lines: LedgerLine[] = [
        { accountId: wallet, amountMicros: -total },
        { accountId: providerAccount, amountMicros: providerMicros },
        { accountId: platformId, amountMicros: feeMicros + storageMicros, system: true },
      ];
      postings.push({
        kind: 'metered_minute',
        memo: `Instance ${instance.id}: minute ${minute} (${computeMicros > 0n ? 'compute and storage' : 'storage'})`,
        idempotencyKey: key,
        reference: `instance:${instance.id}`,
        lines,
      });
    }
    const written = await ledgerService.postMany(tx, postings);
    // A minute whose key was used before moves paid time on without counting again.
    await meteredSql.recordMinutes(
      tx,
      minutes.map((m) =>
        m.charged === 0n || written.has(m.key) ? m : { ...m, compute: 0, storage: 0, charged: 0n },
      ),
    );
    await outagesRepo.countNotCharged(tx, dark);
    await caps.write(tx, now);
    return { count: due.length, stops, reached };
  });
  await stopForSpendCaps(ctx, charged.reached, now);
  // Stopped in transactions of their own, after the charges commit: a stop takes the
  // listing's row lock, which must never be awaited while holding wallet locks (a rent
  // takes them the other way round).
  for (const candidate of charged.stops) {
    await accounts.transact(async (tx) => {
      const row = await instancesRepo.lockView(tx, candidate.id);
      if (row?.instance.status !== 'running') return;
      await ctx.stopLocked(tx, row.instance, now, ENDINGS.outOfCredits.reason);
      await meteredSql.markStoppedForCredits(tx, row.instance.userId, now, 1);
    });
  }
  return charged.count;
}
