import type { Receipt, WebInvoice } from '../../../shared/contracts/invoices';
import { INVOICE_LINE_LABELS } from '../../../shared/contracts/invoices';
import { dollarText } from '../../../shared/rules/money';
import { formatDate } from '../../../shared/rules/time';
import { flowPages, type PdfText, pdfDocument } from '../../lib/pdf';

/**
 * The PDF forms of an invoice and a receipt: the same figures as their pages, from the same
 * answer (./service.ts). Dates as the web app shows them, in UTC ("Nov 28, 2026").
 */

const LEFT = 56;
const RIGHT = 539;
const date = (iso: string) => formatDate(iso, { timeZone: 'UTC' });
const dayDate = (day: string) => date(`${day}T00:00:00Z`);

type Row = { height: number; texts: (y: number) => PdfText[] };
const text = (height: number, t: Omit<PdfText, 'y'>[]): Row => ({
  height,
  texts: (y) => t.map((p) => ({ ...p, y })),
});
const pair = (label: string, value: string, bold = false, size = 10): Row =>
  text(size + 6, [
    { x: LEFT, text: label, bold, size },
    { x: RIGHT, text: value, bold, size, align: 'right' },
  ]);

function heading(title: string, number: string): Row[] {
  return [
    text(22, [{ x: LEFT, text: 'RentGPU', bold: true, size: 18 }]),
    text(22, [{ x: LEFT, text: title, bold: true, size: 14 }]),
    text(16, [{ x: LEFT, text: number, size: 10 }]),
  ];
}

export function invoicePdf(invoice: WebInvoice): Buffer {
  const rows: Row[] = [
    ...heading(
      invoice.title,
      `${invoice.number} · ${invoice.status === 'final' ? 'Final' : 'Draft'}`,
    ),
    text(16, [{ x: LEFT, text: `Issued ${date(invoice.issuedAt)}` }]),
    text(16, [
      {
        x: LEFT,
        text: `Billed to ${invoice.customer.name ? `${invoice.customer.name} <${invoice.customer.email}>` : invoice.customer.email}`,
      },
    ]),
    text(24, [
      {
        x: LEFT,
        text: `Period ${date(invoice.periodStart)} – ${invoice.periodEnd ? date(invoice.periodEnd) : 'running'} (dates in UTC)`,
      },
    ]),
    text(18, [
      { x: LEFT, text: 'Date', bold: true, ruleTo: RIGHT },
      { x: 140, text: 'Instance', bold: true },
      { x: 205, text: 'Line', bold: true },
      { x: RIGHT, text: 'Amount', bold: true, align: 'right' },
    ]),
  ];
  if (invoice.days.length === 0) {
    rows.push(text(16, [{ x: LEFT, text: 'Nothing was charged or refunded.' }]));
  }
  for (const line of invoice.days) {
    rows.push(
      text(15, [
        { x: LEFT, text: dayDate(line.day), size: 9 },
        { x: 140, text: `#${line.instanceId}`, size: 9 },
        {
          x: 205,
          text: `${INVOICE_LINE_LABELS[line.kind]} — ${line.description}`.slice(0, 70),
          size: 9,
        },
        { x: RIGHT, text: dollarText(line.amount), size: 9, align: 'right' },
      ]),
    );
  }
  rows.push(
    text(14, []),
    pair('Compute', dollarText(invoice.totals.compute)),
    pair('Storage', dollarText(invoice.totals.storage)),
    pair('Refunds and credits', dollarText(invoice.totals.refunds)),
    pair('Total', `${dollarText(invoice.totals.total)} USD`, true, 12),
    text(24, []),
    text(14, [
      {
        x: LEFT,
        text: 'Amounts per day are exact (per-minute prices have more decimals than cents); totals are rounded to the cent.',
        size: 8,
      },
    ]),
  );
  return pdfDocument(flowPages(rows), `${invoice.number} ${invoice.title}`);
}

export function receiptPdf(receipt: Receipt): Buffer {
  const rows: Row[] = [
    ...heading('Receipt for credits', receipt.number),
    text(16, [{ x: LEFT, text: `Paid ${date(receipt.paidAt)}` }]),
    text(16, [
      {
        x: LEFT,
        text: `Paid by ${receipt.customer.name ? `${receipt.customer.name} <${receipt.customer.email}>` : receipt.customer.email}`,
      },
    ]),
    text(16, [{ x: LEFT, text: `Method ${receipt.method}` }]),
    text(24, [{ x: LEFT, text: `Reference ${receipt.paypalCaptureId ?? receipt.orderId}` }]),
    pair('Amount paid', dollarText(receipt.amount)),
    pair('Bonus credits', dollarText(receipt.bonus)),
    pair('Credits added', `${dollarText(receipt.credits)} USD`, true, 12),
  ];
  return pdfDocument(flowPages(rows), `${receipt.number} Receipt for credits`);
}
