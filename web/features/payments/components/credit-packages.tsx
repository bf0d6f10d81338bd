import { Check } from 'lucide-react';
import { CREDIT_PACKAGES, type CreditPackageId } from '../../../../shared/contracts/payments';
import { dollarsToMicros, microsToDollars } from '../../../../shared/rules/money';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { usd } from '../selection';

interface CreditPackagesProps {
  selected: CreditPackageId | null;
  onSelect: (id: CreditPackageId) => void;
}

/** The five packages (shared/contracts/payments.ts) as one radio group. */
export function CreditPackages({ selected, onSelect }: CreditPackagesProps) {
  return (
    <div
      role="radiogroup"
      aria-label="Credit packages"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
    >
      {CREDIT_PACKAGES.map((pkg) => {
        const checked = selected === pkg.id;
        const total = microsToDollars(dollarsToMicros(pkg.amount) + dollarsToMicros(pkg.bonus));
        const hasBonus = pkg.bonus !== '0.00';
        return (
          // biome-ignore lint/a11y/useSemanticElements: a styled card that acts as one radio.
          <button
            key={pkg.id}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={`${pkg.label}: ${usd(pkg.amount)}${hasBonus ? ` plus ${usd(pkg.bonus)} bonus` : ''}`}
            onClick={() => onSelect(pkg.id)}
            className={cn(
              'relative grid gap-1 rounded-xl border-2 p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-ring',
              checked
                ? 'border-primary bg-card ring-2 ring-primary/30'
                : 'border-border bg-card hover:border-primary/50',
            )}
          >
            <span className="flex items-center justify-between gap-2">
              <span className="font-semibold">{pkg.label}</span>
              {pkg.popular ? <Badge tone="info">Popular</Badge> : null}
            </span>
            <span className="text-2xl font-bold">{usd(pkg.amount)}</span>
            <span
              className={cn('text-sm', hasBonus ? 'text-success-text' : 'text-muted-foreground')}
            >
              {hasBonus ? `+${usd(pkg.bonus)} bonus` : 'No bonus'}
            </span>
            <span className="text-xs text-muted-foreground">{usd(total)} in credits</span>
            {checked ? (
              <Check className="absolute right-3 bottom-3 h-5 w-5 text-primary" aria-hidden />
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
