import { FileText, Receipt as ReceiptIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { dollarText } from '../../../../shared/rules/money';
import { Card } from '../../../components/ui/card';
import { useReceipts } from '../api/get-invoices';
import { invoiceDate } from './invoice-document';

/** This month and the two before it, as YYYY-MM (UTC). */
function recentMonths(now: Date): string[] {
  return [0, 1, 2].map((back) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return d.toISOString().slice(0, 7);
  });
}

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * The payments page's links to monthly invoices and to a receipt per credit purchase; read
 * again whenever the balance changes (a purchase just completed).
 */
export function InvoicesAndReceipts({ balance }: { balance: string }) {
  const receipts = useReceipts();
  const { refetch } = receipts;
  const [seen, setSeen] = useState(balance);
  useEffect(() => {
    if (balance === seen) return;
    setSeen(balance);
    void refetch();
  }, [balance, seen, refetch]);
  const list = receipts.data?.receipts ?? [];
  return (
    <Card className="mt-6 p-5">
      <h2 className="text-lg font-semibold">Invoices and receipts</h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div>
          <h3 className="mb-2 text-sm font-medium text-muted-foreground">Monthly invoices</h3>
          <ul className="flex flex-col gap-2 text-sm">
            {recentMonths(new Date()).map((month) => (
              <li key={month}>
                <Link
                  href={`/invoices/month/${month}`}
                  className="inline-flex items-center gap-2 text-link underline"
                >
                  <FileText className="size-4" aria-hidden="true" />
                  Invoice for {monthName(month)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <div aria-busy={receipts.isPending}>
          <h3 className="mb-2 text-sm font-medium text-muted-foreground">Credit receipts</h3>
          {receipts.isError ? (
            <p className="text-sm text-muted-foreground">Receipts could not be loaded.</p>
          ) : list.length === 0 && !receipts.isPending ? (
            <p className="text-sm text-muted-foreground">No credit purchases yet.</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {list.map((r) => (
                <li key={r.orderId} className="flex flex-wrap justify-between gap-2">
                  <Link
                    href={`/receipts/${r.orderId}`}
                    className="inline-flex items-center gap-2 text-link underline"
                  >
                    <ReceiptIcon className="size-4" aria-hidden="true" />
                    Receipt {r.number}
                  </Link>
                  <span className="text-muted-foreground">
                    {invoiceDate(r.paidAt)} · {dollarText(r.credits)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Card>
  );
}
