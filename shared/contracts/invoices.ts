import { z } from 'zod';
import { INVOICE_LINE_KINDS, MONTH_PATTERN } from '../invoice-lines';
import { serialId } from './params';
import { instanceInvoiceAnswer } from './public-api-account';

/**
 * The web app's invoices and receipts (/api/invoices/..., /api/receipts/...): one instance's
 * invoice or one month's, with its lines per instance and UTC day, and a receipt per credit
 * purchase. Amounts are dollar strings: a day's line exactly as the ledger holds it (a
 * minute's price has more decimals than cents), every total rounded to the cent
 * (docs/rules.md, Money).
 */

export {
  INVOICE_LINE_KINDS,
  INVOICE_LINE_LABELS,
  type InvoiceLineKind,
  MONTH_PATTERN,
} from '../invoice-lines';

export const invoiceDayLine = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  instanceId: z.number().int(),
  gpuModel: z.string(),
  kind: z.enum(INVOICE_LINE_KINDS),
  description: z.string(),
  /** Its ledger postings (minutes for a metered instance's compute and storage). */
  postings: z.number().int(),
  /** Exact dollars (negative for refunds and credits). */
  amount: z.string(),
});
export type InvoiceDayLine = z.infer<typeof invoiceDayLine>;

export const invoiceTotals = z.object({
  compute: z.string(),
  storage: z.string(),
  /** Refunds and credits, negative or zero. */
  refunds: z.string(),
  /** What the lines add up to in the ledger, rounded to the cent; compute + storage + refunds. */
  total: z.string(),
});

export const webInvoice = z.object({
  /** INV-<instance id> for an instance, INV-<yyyy-mm> for a month. */
  number: z.string(),
  kind: z.enum(['instance', 'month']),
  title: z.string(),
  issuedAt: z.string(),
  status: z.enum(['draft', 'final']),
  customer: z.object({ email: z.string(), name: z.string().nullable() }),
  periodStart: z.string(),
  periodEnd: z.string().nullable(),
  days: z.array(invoiceDayLine),
  totals: invoiceTotals,
  /** An instance's invoice as the public API answers it (its lines and total); null for a month. */
  instanceInvoice: instanceInvoiceAnswer.shape.invoice.nullable(),
  /** A month's instances, each with its total in that month. */
  instances: z.array(
    z.object({ instanceId: z.number().int(), gpuModel: z.string(), total: z.string() }),
  ),
  currency: z.literal('USD'),
});
export type WebInvoice = z.infer<typeof webInvoice>;
export const webInvoiceAnswer = z.object({ invoice: webInvoice });

export const invoiceMonthParam = z.object({
  month: z.string().regex(MONTH_PATTERN, { message: 'Not a month (YYYY-MM)' }),
});
export const invoiceInstanceParam = z.object({ id: serialId });

export const receipt = z.object({
  number: z.string(),
  orderId: z.string(),
  paidAt: z.string(),
  customer: z.object({ email: z.string(), name: z.string().nullable() }),
  method: z.string(),
  paypalCaptureId: z.string().nullable(),
  /** What was paid, the bonus credits, and both together: what was added to the balance. */
  amount: z.string(),
  bonus: z.string(),
  credits: z.string(),
  currency: z.literal('USD'),
});
export type Receipt = z.infer<typeof receipt>;
export const receiptAnswer = z.object({ receipt });
export const receiptList = z.object({
  receipts: z.array(receipt.pick({ number: true, orderId: true, paidAt: true, credits: true })),
});
export type ReceiptList = z.infer<typeof receiptList>;
export const receiptIdParam = z.object({ id: z.string().uuid({ message: 'Not a receipt id' }) });
