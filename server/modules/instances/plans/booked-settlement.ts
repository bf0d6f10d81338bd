import { endReasonWords } from '../../../../shared/rules/end-reasons';
import { holdsUnit, LIVE_STATES } from '../../../../shared/rules/instance-lifecycle';
import { splitEarnings, usedCostMicros } from '../../../../shared/rules/pricing';
import type { Conn, Tx } from '../../../db/client';
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

/** The accounts a settlement moves money between (the provider's only once it was ready). */
interface SettleAccounts {
  wallet: number;
  escrow: number;
  platform: number;
  provider: number | null;
}

/** The settlement's accounts, found (or created) in the caller's transaction. */
async function accountsIn(
  ctx: Pick<InstancesContext, 'accounts'>,
  tx: Tx,
  instance: Instance,
): Promise<SettleAccounts> {
  return {
    wallet: await ctx.accounts.wallet(tx, instance.userId),
    escrow: await ctx.accounts.system(tx, 'escrow'),
    platform: await ctx.accounts.system(tx, 'platform_revenue'),
    provider:
      instance.readyAt === null ? null : await ctx.accounts.earnings(tx, instance.providerId),
  };
}

/** The settlement's accounts if this process already knows every one of them (else null). */
function accountsKnown(
  ctx: Pick<InstancesContext, 'accounts'>,
  instance: Instance,
): SettleAccounts | null {
  const { known } = ctx.accounts;
  const wallet = known.wallet(instance.userId);
  const escrow = known.system('escrow');
  const platform = known.system('platform_revenue');
  const provider = instance.readyAt === null ? null : known.earnings(instance.providerId);
  if (wallet === undefined || escrow === undefined || platform === undefined) return null;
  if (provider === undefined) return null;
  return { wallet, escrow, platform, provider };
}

/**
 * A booked instance's settlement (pure): completed, the used time's cost (by the second,
 * rounded up to the cent) goes to the provider less the platform fee, the rest of the escrow
 * back to the wallet; never ready, everything, storage included, goes back to the wallet.
 */
function settlementOf(
  instance: Instance,
  how: Ending,
  accounts: SettleAccounts,
  platformFeeBps: number,
) {
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
  if (instance.readyAt === null || accounts.provider === null) {
    posting = {
      kind: 'rental_cancel',
      memo: `Full refund: rental ${instance.id} cancelled (${endReasonWords(how.by)})`,
      reference,
      lines: [
        { accountId: accounts.escrow, amountMicros: -booked, system: true },
        { accountId: accounts.platform, amountMicros: -instance.storageFeeMicros, system: true },
        { accountId: accounts.wallet, amountMicros: booked + instance.storageFeeMicros },
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
    const { providerMicros, feeMicros } = splitEarnings(used, platformFeeBps);
    posting = {
      kind: 'rental_settle',
      memo: `Rental ${instance.id}: ${usedSeconds} s used${unreachableSeconds > 0 ? `, ${unreachableSeconds} s unreachable refunded` : ''} (${endReasonWords(how.by)})`,
      reference,
      lines: [
        { accountId: accounts.escrow, amountMicros: -booked, system: true },
        { accountId: accounts.provider, amountMicros: providerMicros },
        { accountId: accounts.platform, amountMicros: feeMicros, system: true },
        { accountId: accounts.wallet, amountMicros: booked - used },
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
  return { posting: preparePosting(posting), changes };
}

/** The settlement statement's arguments; `asRead`: only on the row as read (not locked). */
const settleArguments = (
  instance: Instance,
  how: Ending,
  settlement: ReturnType<typeof settlementOf>,
  asRead: boolean,
) => ({
  id: instance.id,
  listingId: instance.gpuListingId,
  releaseUnit: holdsUnit(stateOf(instance)),
  to: how.to,
  at: how.at,
  changes: settlement.changes,
  from: LIVE_STATES,
  posting: settlement.posting,
  asRead: asRead ? instance : null,
});

/**
 * Ends a booked instance inside the caller's transaction (the row locked), settled
 * (settlementOf).
 */
export async function settleBooked(
  ctx: Pick<InstancesContext, 'accounts' | 'config'>,
  tx: Tx,
  instance: Instance,
  how: Ending,
): Promise<Instance> {
  const accounts = await accountsIn(ctx, tx, instance);
  const settlement = settlementOf(instance, how, accounts, ctx.config.platformFeeBps);
  const prepared = settlement.posting;
  // The instance ends, its unit goes back and the money moves in one statement; a second
  // cached balance (the provider's earnings beside the wallet) moves after, in id order.
  const settled = await bookedSql.settleBooked(
    tx,
    settleArguments(instance, how, settlement, false),
  );
  if (!settled) throw new Error(`instance ${instance.id} changed under its lock`);
  ledgerService.checkMoved(prepared, settled.posted);
  if (settled.posted.id !== null) await ledgerService.moveAfter(tx, prepared);
  return settled.instance;
}

/**
 * The same settlement as one statement on its own, without a transaction or a lock (a
 * renter's stop: commands/stop.ts): only while the instance is at the generation the caller
 * read, and only when the statement does all of it — every account already known to this
 * process, and at most two cached balances moved, both up (the refund, the provider's share;
 * the statement locks them in id order). Null when it cannot, having written nothing: the
 * caller then takes the locked path.
 */
export async function settleBookedAtOnce(
  ctx: Pick<InstancesContext, 'accounts' | 'config'>,
  conn: Conn,
  instance: Instance,
  how: Ending,
): Promise<Instance | null> {
  const accounts = accountsKnown(ctx, instance);
  if (!accounts) return null;
  const settlement = settlementOf(instance, how, accounts, ctx.config.platformFeeBps);
  const { inline, after } = settlement.posting;
  // Its balances move up only (a refund, the provider's share): one, or two in id order.
  const moves = inline ? [inline] : after;
  if (moves.length > 2 || moves.some((line) => line.amountMicros < 0n)) return null;
  const [first = null, second = null] = moves;
  const settled = await bookedSql.settleBooked(conn, {
    ...settleArguments(instance, how, settlement, true),
    posting: { ...settlement.posting, inline: first, after: [] },
    second,
  });
  // Both moves are up, into accounts that track a balance (a wallet, a provider's earnings),
  // behind a posting written in the same statement: neither can be refused, so there is no
  // outcome to check after the statement has committed (the ledger's invariants would show one).
  return settled?.instance ?? null;
}
