import { Calculator } from 'lucide-react';
import { useState } from 'react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import {
  CALCULATOR_DAYS,
  CALCULATOR_HOURS,
  clampCalculatorDays,
  clampCalculatorHours,
} from '../../../../shared/rules/calculator-input';
import { type Currency, formatMoney } from '../../../../shared/rules/currency';
import { calculatorTotal } from '../../../../shared/rules/pricing';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';

interface CostCalculatorProps {
  listing: GpuListingView | null;
  currency: Currency;
  onRent: (hours: number) => void;
}

/** Sticky Rental Cost Calculator: hours (default 24) and days, the $2.50 storage add-on and the total. */
export function CostCalculator({ listing, currency, onRent }: CostCalculatorProps) {
  const [hours, setHours] = useState<number>(CALCULATOR_HOURS.initial);
  const [days, setDays] = useState<number>(CALCULATOR_DAYS.initial);
  const rate = listing ? Number(listing.hourlyRate) : 0;
  const totalHours = hours + days * 24;
  return (
    <Card className="grid gap-4 p-5 lg:sticky lg:top-20" aria-labelledby="calculator-heading">
      <h2 id="calculator-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Calculator className="h-5 w-5 text-primary" aria-hidden /> Rental Cost Calculator
      </h2>
      {listing ? (
        <p className="text-sm">
          <span className="font-medium">{listing.model}</span>
          <span className="text-muted-foreground">
            {' '}
            · {listing.provider.companyName} · {formatMoney(listing.hourlyRate, currency)}/hr
          </span>
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">No GPU is available to calculate with.</p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Field id="calc-hours" label="Hours">
          <Input
            id="calc-hours"
            type="number"
            min={CALCULATOR_HOURS.min}
            max={CALCULATOR_HOURS.max}
            value={hours}
            onChange={(e) => setHours(clampCalculatorHours(e.target.value))}
          />
        </Field>
        <Field id="calc-days" label="Days">
          <Input
            id="calc-days"
            type="number"
            min={CALCULATOR_DAYS.min}
            max={CALCULATOR_DAYS.max}
            value={days}
            onChange={(e) => setDays(clampCalculatorDays(e.target.value))}
          />
        </Field>
      </div>
      <dl className="grid gap-1.5 text-sm">
        <div className="flex justify-between">
          <dt className="text-muted-foreground">
            Compute ({totalHours} h × {formatMoney(rate, currency)})
          </dt>
          <dd>{formatMoney(totalHours * rate, currency)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Storage add-on (50GB)</dt>
          <dd>{formatMoney(2.5, currency)}</dd>
        </div>
        <div className="flex justify-between border-t border-border pt-2 text-base font-semibold">
          <dt>Total</dt>
          <dd data-testid="calculator-total">
            {formatMoney(calculatorTotal(hours, days, rate), currency)}
          </dd>
        </div>
      </dl>
      <Button disabled={!listing} onClick={() => onRent(Math.min(totalHours, 720))}>
        Rent this GPU
      </Button>
    </Card>
  );
}
