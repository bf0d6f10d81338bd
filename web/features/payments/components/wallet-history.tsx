import { useState } from 'react';
import type { HistoryFilter } from '../../../../shared/contracts/payments';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FilterButtons } from '../../../components/ui/filter-buttons';
import { Skeleton } from '../../../components/ui/skeleton';
import { historyExportUrl, useWalletHistory } from '../api/get-wallet-history';
import { HistoryLine } from './history-line';

const FILTERS: [HistoryFilter, string][] = [
  ['all', 'All'],
  ['purchases', 'Purchases'],
  ['usage', 'Usage'],
  ['refunds', 'Refunds'],
];

const EMPTY: Record<HistoryFilter, string> = {
  all: 'No purchases or charges yet.',
  purchases: 'No purchases yet.',
  usage: 'No usage yet.',
  refunds: 'No refunds yet.',
};

interface WalletHistoryProps {
  timeZone: string;
  language: string;
}

/**
 * The credit history from the ledger, newest first: purchases and refunds one line each, a
 * metered instance's minutes one line per day (expandable to the minutes). Pages on with
 * "Show more"; the whole of it downloads as CSV.
 */
export function WalletHistory({ timeZone, language }: WalletHistoryProps) {
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const history = useWalletHistory(filter);
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="flex-1 text-lg font-semibold">Purchases and Charges</h2>
        <a
          href={historyExportUrl(filter)}
          download
          className={buttonClasses('outline', 'sm')}
          data-testid="history-export"
        >
          Export CSV
        </a>
      </div>
      <FilterButtons
        legend="Show"
        options={FILTERS}
        value={filter}
        onChange={setFilter}
        className="mt-3 flex flex-wrap gap-2"
      />
      {history.isLoading ? (
        <div className="mt-3 grid gap-2">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : history.error ? (
        <p className="mt-3 text-sm text-danger-text">Could not load your history.</p>
      ) : entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">{EMPTY[filter]}</p>
      ) : (
        <>
          <ul className="mt-3 divide-y divide-border" aria-label="Purchases and charges">
            {entries.map((entry) => (
              <HistoryLine key={entry.id} entry={entry} timeZone={timeZone} language={language} />
            ))}
          </ul>
          {history.hasNextPage ? (
            <Button
              variant="outline"
              size="sm"
              className="mt-3"
              disabled={history.isFetchingNextPage}
              onClick={() => void history.fetchNextPage()}
            >
              {history.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
