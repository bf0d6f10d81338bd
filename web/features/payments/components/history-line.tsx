import { useState } from 'react';
import type { WalletEntry, WalletEntryType } from '../../../../shared/contracts/payments';
import { dollarsToMicros, preciseDollars, shownCents } from '../../../../shared/rules/money';
import { formatDate, formatDay } from '../../../../shared/rules/time';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { useHistoryMinutes } from '../api/get-wallet-history';

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
 * A signed amount as the history shows it: "+$25.00", "-$1.28", to the cent, and "-<$0.01" for
 * money under half a cent, so money that moved never reads $0.00. The exact amount is in the
 * CSV export (`amount_exact`) and in the title.
 */
export function SignedAmount({ micros }: { micros: string }) {
  const exact = BigInt(micros);
  const negative = exact < 0n;
  return (
    <span
      className={cn('shrink-0 font-semibold tabular-nums', !negative && 'text-success-text')}
      title={`Exactly ${negative ? '-' : ''}$${preciseDollars(negative ? -exact : exact)}`}
      data-testid="history-amount"
    >
      {negative ? '-' : '+'}
      {shownCents(exact)}
    </span>
  );
}

/** A usage line's compute or storage amount ("0.003334" from the API) to the cent. */
const centsOf = (dollars: string) => shownCents(dollarsToMicros(dollars));

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
                {usage.computeMinutes} compute min ({centsOf(usage.computeAmount)}) ·{' '}
                {usage.storageMinutes} storage min ({centsOf(usage.storageAmount)}) ·{' '}
                {formatDay(usage.day, { language })}
                <span aria-hidden="true"> {open ? '▴' : '▾'}</span>
                <span className="sr-only"> {open ? 'Hide' : 'Show'} the minutes</span>
              </span>
            </button>
          ) : (
            <span className="block break-words">{entry.description}</span>
          )}
          {usage ? null : <span className="text-xs text-muted-foreground">{when}</span>}
        </span>
        <SignedAmount micros={entry.amountMicros} />
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
      aria-label={`Minutes of instance ${usage.instanceId} on ${formatDay(usage.day, { language })}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls past 16 rem; a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="mt-2 max-h-64 overflow-y-auto rounded-md border border-border sm:ml-23"
    >
      {minutes.data.map((minute) => (
        <li
          key={minute.id}
          // On a phone the time sits above its description and amount; a row from sm up.
          className="flex flex-wrap gap-x-3 px-3 py-1.5 text-xs sm:flex-nowrap"
          data-testid="history-minute"
        >
          <span className="w-full shrink-0 tabular-nums text-muted-foreground sm:w-auto">
            {formatDate(minute.createdAt, { timeZone, language, withTime: true })}
          </span>
          <span className="min-w-0 flex-1 break-words">{minute.description}</span>
          <SignedAmount micros={minute.amountMicros} />
        </li>
      ))}
    </ol>
  );
}
