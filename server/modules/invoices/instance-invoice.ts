import type { InstanceInvoice } from '../../../shared/contracts/public-api-account';
import {
  PROVISIONING_NOT_CHARGED,
  UNREACHABLE_NOT_CHARGED,
} from '../../../shared/rules/compute-billing';
import { lineAmounts } from '../../../shared/rules/invoice-cents';
import { microsToDollars, preciseDollars } from '../../../shared/rules/money';
import type { Conn } from '../../db/client';
import { outagesRepo } from '../instances/host-side/outages-repo';
import type { DraftLine } from '../instances/plans/plan';
import { type InstanceRow, termsOf } from '../instances/service';
import { ledgerService } from '../ledger/service';

/*
 * One instance's invoice as the public API answers it (GET /api/v1/instances/{id}/invoice)
 * and the web app's invoice page and PDF show it (./service.ts): one computation for all three.
 */

/**
 * One instance's usage and invoice, from what its ledger transactions ("instance:<id>" for
 * metered minutes and outage credits, "rental:<id>" for a booked rental's escrow, settlement
 * or refund) moved in its owner's wallet. The ledger is the record of money; the instance's
 * counters (compute and storage minutes) only split a metered instance's minutes.
 */
export interface InstanceMoney {
  /** Money out of the wallet (positive micro-dollars). */
  computeMicros: bigint;
  storageMicros: bigint;
  /** Money back into it: a rental's unused time or cancellation, outage credits. */
  unusedRefundMicros: bigint;
  outageCreditMicros: bigint;
  outageCredits: number;
  /** Charges less refunds. */
  netMicros: bigint;
  /** Minutes not charged because its host was unreachable (never money: a memo line). */
  minutesNotCharged: number;
}

export async function instanceMoney(
  conn: Conn,
  row: InstanceRow,
  now: Date,
): Promise<InstanceMoney> {
  const { instance } = row;
  const outages = await outagesRepo.forInstance(conn, instance.id);
  const sums = await ledgerService.walletSumsByKind(conn, instance.userId, [
    `instance:${instance.id}`,
    `rental:${instance.id}`,
  ]);
  const sum = (kind: string) => sums.find((s) => s.kind === kind)?.totalMicros ?? 0n;
  const net = -sums.reduce((total, s) => total + s.totalMicros, 0n);
  const outage = sums.find((s) => s.kind === 'outage_credit');
  const unusedRefundMicros = sum('rental_settle') + sum('rental_cancel');
  const { computeMicros, storageMicros } = termsOf(instance).charges(instance, sum);
  return {
    computeMicros,
    storageMicros,
    unusedRefundMicros,
    outageCreditMicros: outage?.totalMicros ?? 0n,
    outageCredits: outage?.count ?? 0,
    netMicros: net,
    minutesNotCharged: termsOf(instance).minutesNotCharged(instance, outages, now),
  };
}

/** The invoice's and usage's words for time its host was unreachable. */
export const NOT_CHARGED_LINE = UNREACHABLE_NOT_CHARGED;

/**
 * Minutes from its create to its first readiness (or to now, or its end, while it never was):
 * compute is not charged for them (issue 39).
 */
export function provisioningMinutes(instance: InstanceRow['instance'], now: Date): number {
  const until = instance.readyAt ?? instance.endTime ?? now;
  return Math.max(0, Math.ceil((until.getTime() - instance.startTime.getTime()) / 60_000));
}

export function presentInvoice(
  row: InstanceRow,
  money: InstanceMoney,
  customer: { email: string; name: string | null },
  now: Date,
): InstanceInvoice {
  const { instance } = row;
  const drafts: DraftLine[] = [...termsOf(instance).invoiceLines(row, money)];
  const provisioning = provisioningMinutes(instance, now);
  if (provisioning > 0) {
    drafts.push({
      description: PROVISIONING_NOT_CHARGED,
      quantity: provisioning,
      unit: 'minute',
      unitPrice: '0.00',
      amountMicros: 0n,
    });
  }
  if (money.minutesNotCharged > 0) {
    drafts.push({
      description: NOT_CHARGED_LINE,
      quantity: money.minutesNotCharged,
      unit: 'minute',
      unitPrice: '0.00',
      amountMicros: 0n,
    });
  }
  if (money.outageCreditMicros > 0n) {
    drafts.push({
      description: 'Outage credit: the host was unreachable for more than 4 hours',
      quantity: money.outageCredits,
      unit: 'item',
      unitPrice: preciseDollars(-money.outageCreditMicros / BigInt(money.outageCredits || 1)),
      amountMicros: -money.outageCreditMicros,
    });
  }
  // Cents that add up to the total (shared/rules/invoice-cents.ts).
  const amounts = lineAmounts(drafts.map((d) => d.amountMicros));
  const lines = drafts.map(({ amountMicros: _exact, ...line }, i) => ({
    ...line,
    amount: amounts[i] ?? '0.00',
  }));
  return {
    number: `INV-${instance.id}`,
    instanceId: instance.id,
    issuedAt: now.toISOString(),
    status: instance.endTime === null ? 'draft' : 'final',
    customer,
    periodStart: instance.startTime.toISOString(),
    periodEnd: instance.endTime?.toISOString() ?? null,
    lines,
    total: microsToDollars(money.netMicros),
    currency: 'USD',
  };
}
