import { Link } from 'wouter';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatMoney } from '../../../../shared/rules/currency';
import { endReasonSentence } from '../../../../shared/rules/end-reasons';
import { formatRuntime } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { useFormatDate } from '../../../lib/date-format';
import { runtimeMs } from '../rental-math';

const COLUMNS = ['GPU', 'Started', 'Runtime', 'Status', 'Charged', 'Refunded'] as const;

/** Money columns sit right on a wide screen, as a table's figures do. */
const MONEY = new Set<string>(['Charged', 'Refunded']);

/**
 * The past rentals: one card per rental on a phone (every figure visible, nothing to scroll
 * sideways), the same cards laid out as the rows of a six-column table from md up. Each card
 * is a list item whose figures are a description list, so a screen reader hears each label
 * with its value at any width; the column heads are drawn once, for the eye only.
 */
export function RentalHistory({ rentals, now }: { rentals: RentalView[]; now: number }) {
  const formatDate = useFormatDate();
  if (rentals.length === 0)
    return (
      <Card className="p-6 text-center text-sm text-muted-foreground">No past rentals yet.</Card>
    );
  return (
    <Card className="text-sm">
      <div
        aria-hidden="true"
        className="hidden grid-cols-6 gap-x-4 border-b border-border p-3 font-medium text-muted-foreground md:grid"
      >
        {COLUMNS.map((c) => (
          <span key={c} className={MONEY.has(c) ? 'text-right' : undefined}>
            {c}
          </span>
        ))}
      </div>
      <ul aria-label="Rental history" className="divide-y divide-border">
        {rentals.map((r) => {
          const figures: [string, string][] = [
            ['Started', formatDate(r.startTime, { withTime: true })],
            ['Runtime', formatRuntime(runtimeMs(r, now))],
          ];
          const money: [string, string][] = [
            [
              'Charged',
              formatMoney(
                r.status === 'cancelled' ? 0 : Number(r.usedCost ?? 0) + Number(r.storageFee),
              ),
            ],
            ['Refunded', formatMoney(r.refund ?? 0)],
          ];
          const reason = endReasonSentence(r.settledBy);
          return (
            <li
              key={r.id}
              className="grid gap-x-4 gap-y-2 p-3 md:grid-cols-6"
              data-testid="history-row"
            >
              <div className="min-w-0">
                <div className="font-medium break-words">{r.gpuListing.model}</div>
                <div className="text-xs break-words text-muted-foreground">
                  {r.provider.companyName}
                </div>
                <Link href={`/invoices/${r.id}`} className="text-xs text-link underline">
                  Invoice<span className="sr-only"> of rental #{r.id}</span>
                </Link>
              </div>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-2 min-[400px]:grid-cols-3 md:col-span-5 md:grid-cols-5">
                {figures.map(([label, value]) => (
                  <div key={label} className="min-w-0">
                    <dt className="text-xs text-muted-foreground md:sr-only">{label}</dt>
                    <dd className="break-words">{value}</dd>
                  </div>
                ))}
                <div className="min-w-0">
                  <dt className="text-xs text-muted-foreground md:sr-only">Status</dt>
                  <dd data-testid="history-status">
                    <Badge tone={r.status === 'completed' ? 'neutral' : 'warning'}>
                      {r.status === 'completed' ? 'Completed' : 'Cancelled'}
                    </Badge>
                    {reason ? (
                      <span className="mt-1 block text-xs text-muted-foreground">{reason}</span>
                    ) : null}
                  </dd>
                </div>
                {money.map(([label, value]) => (
                  <div key={label} className="min-w-0 md:text-right">
                    <dt className="text-xs text-muted-foreground md:sr-only">{label}</dt>
                    <dd className="tabular-nums" data-testid={`history-${label.toLowerCase()}`}>
                      {value}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
