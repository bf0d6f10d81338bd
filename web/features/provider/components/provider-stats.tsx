import { Activity, CheckCircle2, DollarSign, Server } from 'lucide-react';
import type { ComponentType } from 'react';
import { formatMoney } from '../../../../shared/rules/currency';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { ProviderSummary } from '../utils/provider-summary';

interface Stat {
  label: string;
  value: string;
  hint: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
}

function stats(summary: ProviderSummary): Stat[] {
  return [
    {
      label: 'Total GPUs',
      value: String(summary.totalGpus),
      hint: 'Units across your listings',
      icon: Server,
    },
    {
      label: 'Available',
      value: String(summary.availableGpus),
      hint: 'Free to rent now',
      icon: CheckCircle2,
    },
    {
      label: 'Active Rentals',
      value: String(summary.activeRentals),
      hint: 'Running or provisioning',
      icon: Activity,
    },
    {
      label: 'Total Revenue',
      value: formatMoney(summary.totalRevenue),
      hint: 'Your share of ended rentals',
      icon: DollarSign,
    },
  ];
}

/** Total GPUs, Available, Active Rentals and Total Revenue; skeletons until both lists load. */
export function ProviderStats({ summary }: { summary: ProviderSummary | null }) {
  if (!summary) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-busy="true">
        {['gpus', 'available', 'rentals', 'revenue'].map((key) => (
          <Card key={key} className="grid gap-3 p-4 sm:p-5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-8 w-16" />
          </Card>
        ))}
      </div>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-label="Provider stats">
      {stats(summary).map(({ label, value, hint, icon: Icon }) => (
        <li key={label}>
          <Card
            className="grid h-full content-start gap-1 p-4 sm:p-5"
            data-testid={`stat-${label.toLowerCase().replaceAll(' ', '-')}`}
          >
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-sm font-medium text-muted-foreground">{label}</h2>
              <Icon className="h-4 w-4 shrink-0 text-primary" aria-hidden />
            </div>
            <p className="text-2xl font-bold tabular-nums break-all sm:text-3xl">{value}</p>
            <p className="text-xs text-muted-foreground">{hint}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
