import {
  CUSTOM_AMOUNT_MAX,
  CUSTOM_AMOUNT_MESSAGE,
  CUSTOM_AMOUNT_MIN,
  parseCustomAmount,
} from '../../../../shared/contracts/payments';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';

/** Typing an amount clears the package; custom amounts get no bonus. */
export function CustomAmount({
  value,
  onChange,
}: {
  value: string;
  onChange: (v: string) => void;
}) {
  const invalid = value.trim() !== '' && parseCustomAmount(value) === null;
  return (
    <Field
      id="custom-amount"
      label="Custom amount (USD)"
      hint={`From $${CUSTOM_AMOUNT_MIN} to $${CUSTOM_AMOUNT_MAX.toLocaleString('en-US')}. Custom amounts get no bonus.`}
      error={invalid ? CUSTOM_AMOUNT_MESSAGE : null}
    >
      <div className="relative">
        <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground">
          $
        </span>
        <Input
          id="custom-amount"
          type="number"
          inputMode="decimal"
          min={CUSTOM_AMOUNT_MIN}
          max={CUSTOM_AMOUNT_MAX}
          step="0.01"
          placeholder="Enter amount"
          className="pl-7"
          value={value}
          aria-invalid={invalid}
          aria-describedby={invalid ? 'custom-amount-error' : 'custom-amount-hint'}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </Field>
  );
}
