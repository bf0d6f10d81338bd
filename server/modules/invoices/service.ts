import type { Receipt, ReceiptList, WebInvoice } from '../../../shared/contracts/invoices';
import type { InstanceInvoice } from '../../../shared/contracts/public-api-account';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { InstanceRow } from '../instances/service';
import { ledgerService } from '../ledger/service';
import { presentReceipt, receiptsReads } from '../payments/receipt';
import { usersService } from '../users/service';
import { dayLines, instanceIdOf } from './day-lines';
import { instanceMoney, presentInvoice } from './instance-invoice';

export interface InvoicesDeps {
  db: Db;
  clock: Clock;
  /** The caller's own instance, else 404 (instances.getOwn). */
  getOwn: (userId: string, id: number) => Promise<InstanceRow>;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Invoices and receipts for their owner (app.deps.invoices): one instance's invoice — the
 * public API's (`presentInvoice`, the same code) with its lines per UTC day from the ledger —
 * one month's over every instance it charged or refunded, and a receipt per completed credit
 * purchase. Another user's instance or order is 404, as one that does not exist.
 */
export function createInvoicesService({ db, clock, getOwn }: InvoicesDeps) {
  async function customerOf(userId: string) {
    const profile = await usersService.getProfile(db, userId);
    const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ') || null;
    return { email: profile.email, name };
  }

  /** The public API's invoice of one instance (GET /api/v1/instances/{id}/invoice). */
  async function publicInvoice(userId: string, id: number): Promise<InstanceInvoice> {
    const row = await getOwn(userId, id);
    const now = clock.now();
    return presentInvoice(row, await instanceMoney(db, row, now), await customerOf(userId), now);
  }

  async function forInstance(userId: string, id: number): Promise<WebInvoice> {
    const row = await getOwn(userId, id);
    const now = clock.now();
    const customer = await customerOf(userId);
    const v1 = presentInvoice(row, await instanceMoney(db, row, now), customer, now);
    const moves = await ledgerService.walletDays(db, userId, {
      references: [`instance:${id}`, `rental:${id}`],
    });
    const { lines, totals } = dayLines(moves, new Map([[id, row]]));
    return {
      number: v1.number,
      kind: 'instance',
      title: `Invoice for instance #${id} (${row.listing.model})`,
      issuedAt: v1.issuedAt,
      status: v1.status,
      customer,
      periodStart: v1.periodStart,
      periodEnd: v1.periodEnd,
      days: lines,
      totals,
      instanceInvoice: v1,
      instances: [{ instanceId: id, gpuModel: row.listing.model, total: totals.total }],
      currency: 'USD',
    };
  }

  /** One month's (YYYY-MM, UTC) invoice: every instance posting of the caller's wallet in it. */
  async function forMonth(userId: string, month: string): Promise<WebInvoice> {
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(year, monthNumber - 1, 1));
    const to = new Date(Date.UTC(year, monthNumber, 1));
    const now = clock.now();
    const moves = await ledgerService.walletDays(db, userId, { from, to });
    const ids = [
      ...new Set(moves.map((m) => instanceIdOf(m.reference)).filter((id) => id !== null)),
    ];
    const rows = new Map<number, InstanceRow>();
    for (const id of ids) rows.set(id, await getOwn(userId, id));
    const { lines, totals, perInstance } = dayLines(moves, rows);
    return {
      number: `INV-${month}`,
      kind: 'month',
      title: `Invoice for ${MONTH_NAMES[monthNumber - 1]} ${year}`,
      issuedAt: now.toISOString(),
      status: to <= now ? 'final' : 'draft',
      customer: await customerOf(userId),
      periodStart: from.toISOString(),
      periodEnd: to.toISOString(),
      days: lines,
      totals,
      instanceInvoice: null,
      instances: [...perInstance].map(([instanceId, micros]) => ({
        instanceId,
        gpuModel: rows.get(instanceId)?.listing.model ?? '',
        total: microsToDollars(micros),
      })),
      currency: 'USD',
    };
  }

  async function receipts(userId: string): Promise<ReceiptList> {
    const customer = await customerOf(userId);
    const orders = await receiptsReads.completed(db, userId);
    return {
      receipts: orders.map((order) => {
        const { number, orderId, paidAt, credits } = presentReceipt(order, customer);
        return { number, orderId, paidAt, credits };
      }),
    };
  }

  async function receipt(userId: string, orderId: string): Promise<Receipt> {
    const order = await receiptsReads.one(db, userId, orderId);
    if (!order) throw notFound('Receipt');
    return presentReceipt(order, await customerOf(userId));
  }

  return { publicInvoice, forInstance, forMonth, receipts, receipt };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
