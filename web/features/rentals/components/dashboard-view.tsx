import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useNow } from '../../../lib/use-now';
import { useUserRentals } from '../api/get-user-rentals';
import { ActiveRentalCard } from './active-rental-card';
import { RentalHistory } from './rental-history';
import { SummaryCards } from './summary-cards';

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

export function DashboardView({ userId }: { userId: string }) {
  const { data, isLoading, isError, error } = useUserRentals(userId);
  const now = useNow();
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
      <SummaryCards rentals={rentals} now={now} />
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
      <section aria-labelledby="history-heading" className="grid gap-4">
        <h2 id="history-heading" className="text-xl font-semibold">
          Rental History
        </h2>
        <RentalHistory rentals={past} now={now} />
      </section>
    </div>
  );
}
