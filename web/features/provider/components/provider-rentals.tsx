import { Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatMoney } from '../../../../shared/rules/currency';
import { formatRuntime } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFormatDate } from '../../../lib/date-format';
import { useNow } from '../../../lib/use-now';
import { endedRentals, rentalPhaseLabel } from '../utils/provider-summary';
import { QueryError } from './query-error';

const HISTORY_SHOWN = 10;

/** How long it has run since it was ready (its billed time, issue 39); none before. */
function runtimeMs(rental: RentalView, now: number): number {
  if (rental.readyAt === null) return 0;
  const end = rental.endTime ? Date.parse(rental.endTime) : now;
  return Math.max(0, end - Date.parse(rental.readyAt));
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

function ActiveRental({ rental, now }: { rental: RentalView; now: number }) {
  const phase = rentalPhaseLabel(rental);
  const formatDate = useFormatDate();
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4" data-testid="provider-rental">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">
          {rental.gpuListing.model}{' '}
          <span className="text-sm font-normal text-muted-foreground">
            · {rental.gpuListing.location}
          </span>
        </p>
        <Badge tone={phase === 'Running' ? 'success' : 'warning'}>{phase}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Detail label="Started">{formatDate(rental.startTime, { withTime: true })}</Detail>
        <Detail label="Runtime">{formatRuntime(runtimeMs(rental, now))}</Detail>
        <Detail label="Hourly rate">{formatMoney(rental.hourlyRate)}/hr</Detail>
        {rental.durationHours > 0 ? (
          <Detail label="Booked">
            {rental.durationHours} h · {formatMoney(rental.totalCost)}
          </Detail>
        ) : (
          <Detail label="Earned so far (by the minute)">
            {formatMoney(rental.providerEarnings ?? '0')}
          </Detail>
        )}
      </dl>
    </li>
  );
}

function HistoryRow({ rental, now }: { rental: RentalView; now: number }) {
  const formatDate = useFormatDate();
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
      <span className="min-w-0">
        <span className="font-medium">{rental.gpuListing.model}</span>{' '}
        <span className="text-muted-foreground">
          · {rentalPhaseLabel(rental)} · {formatRuntime(runtimeMs(rental, now))}
          {rental.endTime ? ` · ended ${formatDate(rental.endTime, { withTime: true })}` : ''}
        </span>
      </span>
      <span className="font-semibold tabular-nums text-success-text">
        {formatMoney(rental.providerEarnings ?? '0')}
      </span>
    </li>
  );
}

interface ProviderRentalsProps {
  rentals: RentalView[] | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
}

/** The provider's running rentals, then a short history of ended ones with what they earned. */
export function ProviderRentals({ rentals, isLoading, error, onRetry }: ProviderRentalsProps) {
  const now = useNow(30_000);
  if (isLoading) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (error) return <QueryError what="your rentals" error={error} onRetry={onRetry} />;
  const all = rentals ?? [];
  const active = all.filter((r) => r.status === 'active');
  const ended = endedRentals(all);
  return (
    <div className="grid gap-6">
      {active.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg border border-dashed border-border p-6 text-sm text-muted-foreground">
          <Clock className="h-4 w-4 shrink-0" aria-hidden />
          No one is renting your GPUs right now.
        </p>
      ) : (
        <ul className="grid gap-3" aria-label="Active rentals">
          {active.map((rental) => (
            <ActiveRental key={rental.id} rental={rental} now={now} />
          ))}
        </ul>
      )}
      {ended.length > 0 ? (
        <section aria-labelledby="rental-history-title" className="grid gap-2">
          <h3 id="rental-history-title" className="text-sm font-semibold">
            Ended rentals and earnings
          </h3>
          <ul className="divide-y divide-border rounded-lg border border-border px-4">
            {ended.slice(0, HISTORY_SHOWN).map((rental) => (
              <HistoryRow key={rental.id} rental={rental} now={now} />
            ))}
          </ul>
          {ended.length > HISTORY_SHOWN ? (
            <p className="text-xs text-muted-foreground">
              The {HISTORY_SHOWN} most recent of {ended.length} ended rentals; Total Revenue counts
              them all.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
