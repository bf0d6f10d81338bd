import type { Receipt } from '../../../../shared/contracts/invoices';
import { dollarText } from '../../../../shared/rules/money';
import { Card } from '../../../components/ui/card';
import { DocumentActions, invoiceDate } from './invoice-document';

/** A receipt for one credit purchase (the PDF holds the same). */
export function ReceiptDocument({ receipt, pdfUrl }: { receipt: Receipt; pdfUrl: string }) {
  const rows: [string, string][] = [
    ['Receipt', receipt.number],
    ['Paid', invoiceDate(receipt.paidAt)],
    [
      'Paid by',
      receipt.customer.name
        ? `${receipt.customer.name} (${receipt.customer.email})`
        : receipt.customer.email,
    ],
    ['Method', receipt.method],
    ['Reference', receipt.paypalCaptureId ?? receipt.orderId],
  ];
  return (
    <div className="mt-6 flex flex-col gap-6">
      <DocumentActions pdfUrl={pdfUrl} label={receipt.number} />
      <Card className="max-w-xl p-5 print:border-0 print:shadow-none">
        <dl className="flex flex-col gap-2 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex flex-col sm:flex-row sm:gap-4">
              <dt className="text-muted-foreground sm:w-28">{label}</dt>
              <dd className="min-w-0 break-all font-medium">{value}</dd>
            </div>
          ))}
        </dl>
        <dl className="mt-6 flex flex-col gap-1 border-t border-border pt-4 text-sm">
          <div className="flex justify-between gap-4">
            <dt>Amount paid</dt>
            <dd className="tabular-nums">{dollarText(receipt.amount)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt>Bonus credits</dt>
            <dd className="tabular-nums">{dollarText(receipt.bonus)}</dd>
          </div>
          <div className="flex justify-between gap-4 text-base font-semibold">
            <dt>Credits added</dt>
            <dd className="tabular-nums" data-testid="receipt-credits">
              {dollarText(receipt.credits)} USD
            </dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}
