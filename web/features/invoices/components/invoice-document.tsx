import { Download, Printer } from 'lucide-react';
import { Link } from 'wouter';
import type { WebInvoice } from '../../../../shared/contracts/invoices';
import { INVOICE_LINE_LABELS } from '../../../../shared/invoice-lines';
import { dollarText } from '../../../../shared/rules/money';
import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/** Dates on invoices and receipts: the app's one format, in UTC (the ledger's days are UTC days). */
export const invoiceDate = (iso: string) => formatDate(iso, { timeZone: 'UTC' });
const dayDate = (day: string) => invoiceDate(`${day}T00:00:00Z`);

/** Download and print, hidden when printed. */
export function DocumentActions({ pdfUrl, label }: { pdfUrl: string; label: string }) {
  return (
    <div className="flex flex-wrap gap-2 print:hidden">
      <a href={pdfUrl} download className={buttonClasses('primary', 'sm')}>
        <Download className="size-4" aria-hidden="true" />
        Download PDF
        <span className="sr-only"> of {label}</span>
      </a>
      <button
        type="button"
        className={buttonClasses('outline', 'sm')}
        onClick={() => window.print()}
      >
        <Printer className="size-4" aria-hidden="true" />
        Print
      </button>
    </div>
  );
}

function Total({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'text-base font-semibold' : 'text-sm'}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums" data-testid={`invoice-${label.toLowerCase().split(' ')[0]}`}>
        {dollarText(value)}
        {strong ? ' USD' : ''}
      </dd>
    </div>
  );
}

/**
 * An invoice as the server computed it (the PDF holds the same): who and when, its lines per
 * day and instance (exact, as the ledger holds them), and its totals in cents.
 */
export function InvoiceDocument({ invoice, pdfUrl }: { invoice: WebInvoice; pdfUrl: string }) {
  const { customer } = invoice;
  return (
    <div className="mt-6 flex flex-col gap-6">
      <DocumentActions pdfUrl={pdfUrl} label={invoice.number} />
      <Card className="p-5 print:border-0 print:shadow-none">
        <dl className="grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">Invoice</dt>
            <dd className="flex items-center gap-2 font-medium">
              {invoice.number}
              <Badge
                tone={invoice.status === 'final' ? 'neutral' : 'warning'}
                className="print:border print:border-black print:bg-transparent print:text-black"
              >
                {invoice.status === 'final' ? 'Final' : 'Draft'}
              </Badge>
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Billed to</dt>
            <dd className="break-words font-medium">
              {customer.name ? `${customer.name} (${customer.email})` : customer.email}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Period (UTC)</dt>
            <dd className="font-medium">
              {invoiceDate(invoice.periodStart)} –{' '}
              {invoice.periodEnd ? invoiceDate(invoice.periodEnd) : 'running'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Issued</dt>
            <dd className="font-medium">{invoiceDate(invoice.issuedAt)}</dd>
          </div>
        </dl>
      </Card>

      <Card className="p-5 print:border-0 print:shadow-none">
        <h2 className="mb-3 text-lg font-semibold">By day</h2>
        {invoice.days.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing was charged or refunded.</p>
        ) : (
          <ul className="divide-y divide-border text-sm" aria-label="Invoice lines">
            {invoice.days.map((line) => (
              <li
                key={`${line.day}-${line.instanceId}-${line.kind}`}
                className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-4"
                data-testid="invoice-line"
              >
                <span className="shrink-0 text-muted-foreground sm:w-28">{dayDate(line.day)}</span>
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{INVOICE_LINE_LABELS[line.kind]}</span>
                  {' · '}#{line.instanceId} · {line.description}
                </span>
                <span className="tabular-nums sm:text-right">{dollarText(line.amount)}</span>
              </li>
            ))}
          </ul>
        )}
        {invoice.kind === 'month' && invoice.instances.length > 0 ? (
          <>
            <h2 className="mt-6 mb-3 text-lg font-semibold">By instance</h2>
            <ul className="divide-y divide-border text-sm">
              {invoice.instances.map((i) => (
                <li key={i.instanceId} className="flex justify-between gap-4 py-2">
                  <Link className="text-link underline" href={`/invoices/${i.instanceId}`}>
                    #{i.instanceId} {i.gpuModel}
                  </Link>
                  <span className="tabular-nums">{dollarText(i.total)}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <dl className="mt-6 ml-auto flex max-w-sm flex-col gap-1 border-t border-border pt-4">
          <Total label="Compute" value={invoice.totals.compute} />
          <Total label="Storage" value={invoice.totals.storage} />
          <Total label="Refunds and credits" value={invoice.totals.refunds} />
          <Total label="Total" value={invoice.totals.total} strong />
        </dl>
        <p className="mt-4 text-xs text-muted-foreground">
          Amounts per day are exact (per-minute prices have more decimals than cents); totals are
          rounded to the cent.
        </p>
      </Card>
    </div>
  );
}
