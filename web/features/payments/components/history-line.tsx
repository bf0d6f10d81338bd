import { useState } from 'react';
import type { WalletEntry, WalletEntryType } from '../../../../shared/contracts/payments';
import { formatDate } from '../../../../shared/rules/time';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { useHistoryMinutes } from '../api/get-wallet-history';
import { usd } from '../selection';

const LABELS: Record<WalletEntryType, [string, BadgeTone]> = {
  purchase: ['Purchase', 'success'],
  bonus: ['Bonus', 'info'],
  credit: ['Credit', 'info'],
  charge: ['Charge', 'neutral'],
  refund: ['Refund', 'warning'],
};

interface DateProps {
  timeZone: string;
  language: string;
}

/**
 * A signed amount as the history writes it: "+$25.00", "-$1.28", and below half a cent the
 * digits it takes ("-$0.001"), so money that moved never reads $0.00.
 */
export function SignedAmount({ amount }: { amount: string }) {
  const negative = amount.startsWith('-');
  const abs = negative ? amount.slice(1) : amount;
  const shown = /\.\d{3,}$/.test(abs) ? `$${abs}` : usd(abs);
  return (
    <span className={cn('font-semibold tabular-nums', !negative && 'text-success-text')}>
      {negative ? '-' : '+'}
      {shown}
    </span>
  );
}

/** One line of the credit history; a usage line expands to the minutes it sums. */
export function HistoryLine({ entry, timeZone, language }: { entry: WalletEntry } & DateProps) {
  const [open, setOpen] = useState(false);
  const [label, tone] = LABELS[entry.type];
  const usage = entry.usage;
  const when = formatDate(entry.createdAt, { timeZone, language, withTime: true });
  return (
    <li className="py-2.5 text-sm" data-testid="history-line">
      <div className="flex items-center gap-3">
        <Badge tone={tone} className="w-20 shrink-0 justify-center">
          {label}
        </Badge>
        <span className="min-w-0 flex-1">
          {usage ? (
            <button
              type="button"
              className="block w-full text-left hover:underline"
              aria-expanded={open}
              aria-controls={`${entry.id}-minutes`}
              onClick={() => setOpen((v) => !v)}
            >
              <span className="block font-medium break-words">
                Instance {usage.instanceId} · {usage.gpu}
              </span>
              <span className="block text-xs text-muted-foreground">
                {usage.computeMinutes} compute min (${usage.computeAmount}) · {usage.storageMinutes}{' '}
                storage min (${usage.storageAmount}) · {usage.day}
                <span aria-hidden="true"> {open ? '▴' : '▾'}</span>
                <span className="sr-only"> {open ? 'Hide' : 'Show'} the minutes</span>
              </span>
            </button>
          ) : (
            <span className="block break-words">{entry.description}</span>
          )}
          {usage ? null : <span className="text-xs text-muted-foreground">{when}</span>}
        </span>
        <SignedAmount amount={entry.amount} />
      </div>
      {usage && open ? (
        <Minutes id={`${entry.id}-minutes`} usage={usage} timeZone={timeZone} language={language} />
      ) : null}
    </li>
  );
}

function Minutes({
  id,
  usage,
  timeZone,
  language,
}: { id: string; usage: NonNullable<WalletEntry['usage']> } & DateProps) {
  const minutes = useHistoryMinutes(usage, true);
  if (minutes.isLoading) return <p className="mt-2 text-xs sm:ml-23">Loading the minutes…</p>;
  if (minutes.error || !minutes.data) {
    return <p className="mt-2 text-xs text-danger-text sm:ml-23">Could not load the minutes.</p>;
  }
  return (
    <ol
      id={id}
      aria-label={`Minutes of instance ${usage.instanceId} on ${usage.day}`}
      className="mt-2 max-h-64 overflow-y-auto rounded-md border border-border sm:ml-23"
    >
      {minutes.data.map((minute) => (
        <li key={minute.id} className="flex gap-3 px-3 py-1.5 text-xs" data-testid="history-minute">
          <span className="shrink-0 tabular-nums text-muted-foreground">
            {formatDate(minute.createdAt, { timeZone, language, withTime: true })}
          </span>
          <span className="min-w-0 flex-1 break-words">{minute.description}</span>
          <SignedAmount amount={minute.amount} />
        </li>
      ))}
    </ol>
  );
}
