import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { DateFormat } from './profile-overview';

export const ACTIVITY_LIMIT = 10;

/** What the rental cost the renter: held while active, the used time once completed, nothing if cancelled. */
function costOf(rental: RentalView): string {
  if (rental.status === 'cancelled') return '0.00';
  if (rental.status === 'completed') return rental.usedCost ?? rental.totalCost;
  return rental.totalCost;
}

export function ActivityTab({
  rentals,
  dates,
}: {
  rentals: RentalView[] | undefined;
  dates: DateFormat;
}) {
  if (!rentals) {
    return (
      <Card className="grid gap-2 p-6">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </Card>
    );
  }
  const recent = rentals.slice(0, ACTIVITY_LIMIT);
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold">Recent Activity</h2>
      {recent.length === 0 ? (
        <p className="mt-4 text-muted-foreground">No rental activity yet</p>
      ) : (
        <ul className="mt-4 divide-y divide-border" aria-label="Recent rentals">
          {recent.map((rental) => (
            <li key={rental.id} className="flex flex-wrap items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{rental.gpuListing.model}</p>
                <p className="text-xs text-muted-foreground">
                  Started {formatDate(rental.startTime, dates)}
                </p>
              </div>
              <Badge
                tone={rental.status === 'active' ? 'success' : 'neutral'}
                className="capitalize"
              >
                {rental.status}
              </Badge>
              <span className="w-24 text-right font-semibold tabular-nums">${costOf(rental)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
