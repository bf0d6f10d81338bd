import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFocusLinked } from '../../../lib/use-focus-linked';
import { useNow } from '../../../lib/use-now';
import { useUserRentals } from '../api/get-user-rentals';
import { ActiveRentalCard } from './active-rental-card';
import { RentalHistory } from './rental-history';
import { type MeteredSummary, SummaryCards } from './summary-cards';

export function DashboardSkeleton() {
  return (
    <div className="grid gap-4" aria-busy="true">
      <div className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-48" />
    </div>
  );
}

/**
 * My Dashboard: the summary cards, Active Rentals and Rental History,
 * and between them the pay-as-you-go instances (`metered`, composed by the page from the VM
 * feature) so that every instance is here (issue 26).
 */
export function DashboardView({
  userId,
  metered,
  meteredList,
}: {
  userId: string;
  metered: MeteredSummary;
  meteredList: ReactNode;
}) {
  const { data, isLoading, isError, error } = useUserRentals(userId);
  const now = useNow();
  useFocusLinked('rental-', data !== undefined);
  if (isLoading) return <DashboardSkeleton />;
  if (isError)
    return (
      <Card className="p-6 text-danger-text" role="alert">
        {error.message}
      </Card>
    );
  const rentals = data ?? [];
  const active = rentals.filter((r) => r.status === 'active');
  const past = rentals.filter((r) => r.status !== 'active');
  return (
    <div className="grid gap-8">
      <SummaryCards rentals={rentals} metered={metered} now={now} />
      <section aria-labelledby="active-heading" className="grid gap-4">
        <h2 id="active-heading" className="text-xl font-semibold">
          Active Rentals
        </h2>
        {active.length === 0 ? (
          <Card className="grid justify-items-center gap-3 p-8 text-center">
            <p className="text-muted-foreground">You have no running instances.</p>
            <Link href="/marketplace" className={buttonClasses('primary', 'md')}>
              Browse GPUs
            </Link>
          </Card>
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            {active.map((rental) => (
              <ActiveRentalCard key={rental.id} rental={rental} now={now} />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="metered-heading" className="grid gap-4">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="metered-heading" className="text-xl font-semibold">
              Pay-as-you-go Instances
            </h2>
            <p className="text-sm text-muted-foreground">
              VMs, Instant Deploys and API launches, charged by the minute until terminated.
            </p>
          </div>
          <Link href="/vm-dashboard" className="text-sm font-medium text-link underline">
            Open the VM Dashboard
          </Link>
        </div>
        {meteredList}
      </section>
      <section aria-labelledby="history-heading" className="grid gap-4">
        <h2 id="history-heading" className="text-xl font-semibold">
          Rental History
        </h2>
        <RentalHistory rentals={past} now={now} />
      </section>
    </div>
  );
}
