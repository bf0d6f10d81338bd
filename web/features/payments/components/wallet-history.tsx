import type { WalletEntryType } from '../../../../shared/contracts/payments';
import { formatDate } from '../../../../shared/rules/time';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { useWalletHistory } from '../api/get-wallet-history';
import { usd } from '../selection';

const LABELS: Record<WalletEntryType, [string, BadgeTone]> = {
  purchase: ['Purchase', 'success'],
  bonus: ['Bonus', 'info'],
  credit: ['Credit', 'info'],
  charge: ['Charge', 'neutral'],
  refund: ['Refund', 'warning'],
};

interface WalletHistoryProps {
  timeZone: string;
  language: string;
  limit?: number;
}

/** Purchases and charges from the ledger, newest first. */
export function WalletHistory({ timeZone, language, limit = 20 }: WalletHistoryProps) {
  const history = useWalletHistory();
  const entries = history.data?.slice(0, limit) ?? [];
  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold">Purchases and Charges</h2>
      {history.isLoading ? (
        <div className="mt-3 grid gap-2">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : history.error ? (
        <p className="mt-3 text-sm text-danger-text">Could not load your history.</p>
      ) : entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No purchases or charges yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-border" aria-label="Purchases and charges">
          {entries.map((entry) => {
            const [label, tone] = LABELS[entry.type];
            const positive = !entry.amount.startsWith('-');
            return (
              <li key={entry.id} className="flex items-center gap-3 py-2.5 text-sm">
                <Badge tone={tone} className="w-20 justify-center">
                  {label}
                </Badge>
                <span className="min-w-0 flex-1">
                  <span className="block truncate">{entry.description}</span>
                  <span className="text-xs text-muted-foreground">
                    {formatDate(entry.createdAt, { timeZone, language, withTime: true })}
                  </span>
                </span>
                <span className={cn('font-semibold tabular-nums', positive && 'text-success-text')}>
                  {positive ? '+' : '-'}
                  {usd(entry.amount.replace('-', ''))}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
