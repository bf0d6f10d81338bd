import type { InstanceInvoice, InstanceUsage } from '../../../shared/contracts/public-api';
import { computeMinuteMicros, storageMinuteMicros } from '../../../shared/rules/metering';
import { microsToDollars } from '../../../shared/rules/money';
import type { Conn, Db } from '../../db/client';
import type { InstanceRow } from '../instances/service';
import { ledgerService } from '../ledger/service';
import { presentPublicInstance } from './presenter';

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
}

export async function instanceMoney(conn: Conn, row: InstanceRow): Promise<InstanceMoney> {
  const { instance } = row;
  const sums = await ledgerService.walletSumsByKind(conn, instance.userId, [
    `instance:${instance.id}`,
    `rental:${instance.id}`,
  ]);
  const sum = (kind: string) => sums.find((s) => s.kind === kind)?.totalMicros ?? 0n;
  const net = -sums.reduce((total, s) => total + s.totalMicros, 0n);
  const outage = sums.find((s) => s.kind === 'outage_credit');
  const unusedRefundMicros = sum('rental_settle') + sum('rental_cancel');
  let computeMicros: bigint;
  let storageMicros: bigint;
  if (instance.billingPlan === 'booked') {
    const held = -sum('rental_start');
    storageMicros = held > 0n ? instance.storageFeeMicros : 0n;
    computeMicros = held - storageMicros;
  } else {
    const minutes = -sum('metered_minute');
    computeMicros =
      BigInt(instance.computeMinutes) * computeMinuteMicros(instance.hourlyRateMicros);
    if (computeMicros > minutes) computeMicros = minutes;
    storageMicros = minutes - computeMicros;
  }
  return {
    computeMicros,
    storageMicros,
    unusedRefundMicros,
    outageCreditMicros: outage?.totalMicros ?? 0n,
    outageCredits: outage?.count ?? 0,
    netMicros: net,
  };
}

/** Seconds of compute the instance has been billed for. */
function billedSeconds(row: InstanceRow): number {
  const { instance } = row;
  if (instance.billingPlan !== 'booked') return instance.computeMinutes * 60;
  if (instance.usedSeconds !== null) return instance.usedSeconds;
  return (instance.durationHours ?? 0) * 3600;
}

export function presentUsage(row: InstanceRow, money: InstanceMoney): InstanceUsage {
  const { instance, listing } = row;
  return {
    instanceId: instance.id,
    gpuModel: listing.model,
    billingPlan: instance.billingPlan === 'booked' ? 'booked' : 'metered',
    status: presentPublicInstance(row).status,
    hourlyRate: microsToDollars(instance.hourlyRateMicros),
    storageGb: instance.storageGb,
    startedAt: instance.startTime.toISOString(),
    endedAt: instance.endTime?.toISOString() ?? null,
    computeMinutes: instance.computeMinutes,
    storageMinutes: instance.storageMinutes,
    billedSeconds: billedSeconds(row),
    computeCharges: microsToDollars(money.computeMicros),
    storageCharges: microsToDollars(money.storageMicros),
    refunds: microsToDollars(money.unusedRefundMicros + money.outageCreditMicros),
    totalCost: microsToDollars(money.netMicros),
    currency: 'USD',
  };
}

/** Micro-dollars as dollars with as many decimals as needed (at least two): a minute's price. */
export function preciseDollars(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${negative ? '-' : ''}${whole}.${frac.padEnd(2, '0')}`;
}

type Line = InstanceInvoice['lines'][number];

export function presentInvoice(
  row: InstanceRow,
  money: InstanceMoney,
  customer: { email: string; name: string | null },
  now: Date,
): InstanceInvoice {
  const { instance, listing } = row;
  const rate = microsToDollars(instance.hourlyRateMicros);
  const lines: Line[] = [];
  if (instance.billingPlan === 'booked') {
    if (money.computeMicros > 0n) {
      lines.push({
        description: `Booking: ${instance.durationHours} h of ${listing.model} at $${rate}/h`,
        quantity: instance.durationHours ?? 0,
        unit: 'hour',
        unitPrice: rate,
        amount: microsToDollars(money.computeMicros),
      });
    }
    if (money.storageMicros > 0n) {
      lines.push({
        description: 'Storage add-on',
        quantity: 1,
        unit: 'item',
        unitPrice: microsToDollars(money.storageMicros),
        amount: microsToDollars(money.storageMicros),
      });
    }
    if (money.unusedRefundMicros > 0n) {
      lines.push({
        description:
          instance.readyAt === null
            ? 'Refund: never ready, everything returned'
            : `Refund: unused time (${instance.usedSeconds ?? 0} s used)`,
        quantity: 1,
        unit: 'item',
        unitPrice: microsToDollars(-money.unusedRefundMicros),
        amount: microsToDollars(-money.unusedRefundMicros),
      });
    }
  } else {
    lines.push({
      description: `Compute: ${listing.model} at $${rate}/h, by the minute`,
      quantity: instance.computeMinutes,
      unit: 'minute',
      unitPrice: preciseDollars(computeMinuteMicros(instance.hourlyRateMicros)),
      amount: microsToDollars(money.computeMicros),
    });
    lines.push({
      description: `Storage: ${instance.storageGb} GB, by the minute`,
      quantity: instance.storageMinutes,
      unit: 'minute',
      unitPrice: preciseDollars(storageMinuteMicros(instance.storageGb)),
      amount: microsToDollars(money.storageMicros),
    });
  }
  if (money.outageCreditMicros > 0n) {
    lines.push({
      description: 'Outage credit: the host was unreachable for more than 4 hours',
      quantity: money.outageCredits,
      unit: 'item',
      unitPrice: preciseDollars(-money.outageCreditMicros / BigInt(money.outageCredits || 1)),
      amount: microsToDollars(-money.outageCreditMicros),
    });
  }
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

const CSV_COLUMNS = [
  'invoice',
  'instance_id',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'amount',
  'currency',
] as const;

/** RFC 4180: quoted when it holds a comma, quote or line break; a leading =+-@ is defused. */
function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+@\t\r]/.test(text) || (/^-/.test(text) && !/^-\d/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The invoice as CSV: one row per line, then its total. */
export function invoiceCsv(invoice: InstanceInvoice): string {
  const rows: (string | number)[][] = [
    [...CSV_COLUMNS],
    ...invoice.lines.map((line) => [
      invoice.number,
      invoice.instanceId,
      line.description,
      line.quantity,
      line.unit,
      line.unitPrice,
      line.amount,
      invoice.currency,
    ]),
    [invoice.number, invoice.instanceId, 'Total', '', '', '', invoice.total, invoice.currency],
  ];
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** The public API's instance billing (app.deps.instanceBilling): one instance's money, from the ledger. */
export function createInstanceBilling(db: Db) {
  return { money: (row: InstanceRow) => instanceMoney(db, row) };
}

export type InstanceBilling = ReturnType<typeof createInstanceBilling>;
