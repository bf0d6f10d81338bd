import type { InstanceInvoice, InstanceUsage } from '../../../shared/contracts/public-api-account';
import { csvText } from '../../../shared/rules/csv';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import { type InstanceRow, planName, termsOf } from '../instances/service';
import { type InstanceMoney, instanceMoney } from '../invoices/instance-invoice';
import { presentPublicInstance } from './presenter';

// The invoice's lines are computed once, for v1, the web page and the PDF (invoices/).
export { instanceMoney, presentInvoice } from '../invoices/instance-invoice';

export function presentUsage(row: InstanceRow, money: InstanceMoney): InstanceUsage {
  const { instance, listing } = row;
  return {
    instanceId: instance.id,
    gpuModel: listing.model,
    billingPlan: planName(instance),
    status: presentPublicInstance(row).status,
    hourlyRate: microsToDollars(instance.hourlyRateMicros),
    storageGb: instance.storageGb,
    startedAt: instance.startTime.toISOString(),
    endedAt: instance.endTime?.toISOString() ?? null,
    computeMinutes: instance.computeMinutes,
    storageMinutes: instance.storageMinutes,
    billedSeconds: termsOf(instance).billedSeconds(instance),
    computeCharges: microsToDollars(money.computeMicros),
    storageCharges: microsToDollars(money.storageMicros),
    refunds: microsToDollars(money.unusedRefundMicros + money.outageCreditMicros),
    hostUnreachableMinutes: money.minutesNotCharged,
    totalCost: microsToDollars(money.netMicros),
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
  return csvText(rows);
}

/** The public API's instance billing (app.deps.instanceBilling): one instance's money, from the ledger. */
export function createInstanceBilling(db: Db) {
  return { money: (row: InstanceRow, now: Date) => instanceMoney(db, row, now) };
}

export type InstanceBilling = ReturnType<typeof createInstanceBilling>;
