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

/**
 * A pay-as-you-go instance (a VM or a deploy, charged by the minute) as the summary cards count
 * it beside the booked rentals; the VM feature makes these (web/features/vm/vm-status.ts).
 */
export interface MeteredEntry {
  key: string;
  name: string;
  createdAt: string;
  /** Its status word (running, stopped, creating, …). */
  status: string;
  /** Counted under Active Rentals. */
  active: boolean;
  /** Charged so far, in dollars. */
  spent: number;
}

export interface MeteredSummary {
  entries: MeteredEntry[];
  /** Hours the pay-as-you-go instances have run, all together. */
  hours: number;
}

interface DetailRow {
  key: string;
  name: string;
  date: string | null;
  value: string;
}

function DetailList({ rows }: { rows: DetailRow[] }) {
  const formatDate = useFormatDate();
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Nothing here yet.</p>;
  return (
    <ul className="grid max-h-80 gap-2 overflow-y-auto text-sm">
      {rows.map((r) => (
        <li key={r.key} className="flex justify-between gap-3 rounded-md bg-muted px-3 py-2">
          <span>
            {r.name}
            {r.date ? <span className="text-muted-foreground"> · {formatDate(r.date)}</span> : null}
          </span>
          <span className="font-medium">{r.value}</span>
        </li>
      ))}
    </ul>
  );
}

const rentalRows = (rentals: RentalView[], value: (r: RentalView) => string): DetailRow[] =>
  rentals.map((r) => ({
    key: `rental-${r.id}`,
    name: r.gpuListing.model,
    date: r.startTime,
    value: value(r),
  }));

const meteredRows = (entries: MeteredEntry[], value: (e: MeteredEntry) => string): DetailRow[] =>
  entries.map((e) => ({ key: e.key, name: e.name, date: e.createdAt, value: value(e) }));

/**
 * Active Rentals, Total Runtime and Total Spent, each opening its list;
 * every instance counts, booked or pay-as-you-go (issue 26).
 */
export function SummaryCards({
  rentals,
  metered,
  now,
}: {
  rentals: RentalView[];
  metered: MeteredSummary;
  now: number;
}) {
  const [open, setOpen] = useState<Detail>(null);
  const summary = summarize(rentals, now);
  const activeMetered = metered.entries.filter((e) => e.active);
  const meteredSpent = metered.entries.reduce((sum, e) => sum + e.spent, 0);
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
      value: String(summary.active.length + activeMetered.length),
      body: (
        <DetailList
          rows={[
            ...rentalRows(summary.active, (r) =>
              r.phase === 'ready' ? 'Running' : 'Provisioning',
            ),
            ...meteredRows(activeMetered, (e) => e.status),
          ]}
        />
      ),
    },
    {
      key: 'runtime',
      icon: Clock,
      label: 'Total Runtime',
      value: `${summary.totalRuntimeHours + Math.floor(metered.hours)}h`,
      body: (
        <DetailList
          rows={[
            ...rentalRows(
              rentals.filter((r) => r.status !== 'cancelled'),
              (r) => formatRuntime(runtimeMs(r, now)),
            ),
            // The VM API has their hours together, not each one's.
            ...(metered.entries.length > 0
              ? [
                  {
                    key: 'metered',
                    name: 'Pay-as-you-go instances, together',
                    date: null,
                    value: formatRuntime(metered.hours * 3_600_000),
                  },
                ]
              : []),
          ]}
        />
      ),
    },
    {
      key: 'spent',
      icon: Wallet,
      label: 'Total Spent',
      value: formatMoney(summary.totalSpent + meteredSpent),
      body: (
        <DetailList
          rows={[
            ...rentalRows(rentals, (r) => formatMoney(spentOn(r, now))),
            ...meteredRows(metered.entries, (e) => formatMoney(e.spent)),
          ]}
        />
      ),
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
