import { Activity, Cpu, DollarSign, Users } from 'lucide-react';
import type { Currency } from '../../../../shared/rules/currency';
import { formatMoney } from '../../../../shared/rules/currency';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useMarketplaceStats } from '../api/get-stats';

export function StatsStrip({ currency }: { currency: Currency }) {
  const { data, isLoading, isError } = useMarketplaceStats();
  const items = [
    { icon: Cpu, label: 'Available GPUs', value: data ? String(data.availableGPUs) : '' },
    {
      icon: DollarSign,
      label: 'Average Price',
      value: data ? `${formatMoney(data.avgPrice, currency)}/hr` : '',
    },
    { icon: Activity, label: 'Active Rentals', value: data ? String(data.activeRentals) : '' },
    { icon: Users, label: 'Providers Online', value: data ? String(data.providersOnline) : '' },
  ];
  return (
    <section aria-label="Marketplace statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map(({ icon: Icon, label, value }) => (
        <Card key={label} className="flex items-center gap-3 p-4">
          <Icon className="h-5 w-5 shrink-0 text-primary" aria-hidden />
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">{label}</p>
            {isLoading ? (
              <Skeleton className="mt-1 h-6 w-16" />
            ) : (
              <p className="text-lg font-semibold" data-testid={`stat-${label}`}>
                {isError ? '—' : value}
              </p>
            )}
          </div>
        </Card>
      ))}
    </section>
  );
}
