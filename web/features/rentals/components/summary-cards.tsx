import { Activity, Clock, Wallet } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatMoney } from '../../../../shared/rules/currency';
import { formatRuntime } from '../../../../shared/rules/pricing';
import { Card } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { useFormatDate } from '../../../lib/date-format';
import { runtimeMs, spentOn, summarize } from '../rental-math';

type Detail = 'active' | 'runtime' | 'spent' | null;

function DetailList({
  rentals,
  value,
}: {
  rentals: RentalView[];
  value: (r: RentalView) => string;
}) {
  const formatDate = useFormatDate();
  if (rentals.length === 0)
    return <p className="text-sm text-muted-foreground">Nothing here yet.</p>;
  return (
    <ul className="grid max-h-80 gap-2 overflow-y-auto text-sm">
      {rentals.map((r) => (
        <li key={r.id} className="flex justify-between gap-3 rounded-md bg-muted px-3 py-2">
          <span>
            {r.gpuListing.model}{' '}
            <span className="text-muted-foreground">· {formatDate(r.startTime)}</span>
          </span>
          <span className="font-medium">{value(r)}</span>
        </li>
      ))}
    </ul>
  );
}

export function SummaryCards({ rentals, now }: { rentals: RentalView[]; now: number }) {
  const [open, setOpen] = useState<Detail>(null);
  const summary = summarize(rentals, now);
  const cards: {
    key: Exclude<Detail, null>;
    icon: typeof Activity;
    label: string;
    value: string;
    body: ReactNode;
  }[] = [
    {
      key: 'active',
      icon: Activity,
      label: 'Active Rentals',
      value: String(summary.active.length),
      body: (
        <DetailList
          rentals={summary.active}
          value={(r) => (r.phase === 'ready' ? 'Running' : 'Provisioning')}
        />
      ),
    },
    {
      key: 'runtime',
      icon: Clock,
      label: 'Total Runtime',
      value: `${summary.totalRuntimeHours}h`,
      body: (
        <DetailList
          rentals={rentals.filter((r) => r.status !== 'cancelled')}
          value={(r) => formatRuntime(runtimeMs(r, now))}
        />
      ),
    },
    {
      key: 'spent',
      icon: Wallet,
      label: 'Total Spent',
      value: formatMoney(summary.totalSpent),
      body: <DetailList rentals={rentals} value={(r) => formatMoney(spentOn(r, now))} />,
    },
  ];
  const current = cards.find((c) => c.key === open);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        {cards.map(({ key, icon: Icon, label, value }) => (
          <button
            key={key}
            type="button"
            onClick={() => setOpen(key)}
            className="text-left"
            aria-haspopup="dialog"
          >
            <Card className="flex items-center gap-4 p-5 transition-colors hover:bg-muted">
              <Icon className="h-6 w-6 text-primary" aria-hidden />
              <div>
                <p className="text-sm text-muted-foreground">{label}</p>
                <p className="text-2xl font-bold" data-testid={`summary-${key}`}>
                  {value}
                </p>
              </div>
            </Card>
          </button>
        ))}
      </div>
      <Dialog
        open={current !== undefined}
        onOpenChange={(o) => !o && setOpen(null)}
        title={current?.label ?? ''}
      >
        {current?.body}
      </Dialog>
    </>
  );
}
