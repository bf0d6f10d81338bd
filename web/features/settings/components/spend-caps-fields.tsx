import type { UserSettings } from '../../../../shared/contracts/settings';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import type { PartProps } from './settings-fields';

type Billing = UserSettings['billing'];

const HINT =
  'When a charge would go over a cap, your running metered instances are stopped (never deleted) and new launches are refused. You are warned at 80%. Empty: no cap.';

/** The account's daily (UTC day) and monthly spend caps: enforced with every charge. */
export function SpendCapsFields({ value, onChange }: PartProps<Billing>) {
  const field = (key: 'dailySpendCap' | 'monthlySpendCap', id: string, label: string) => (
    <Field id={id} label={label}>
      <Input
        id={id}
        inputMode="decimal"
        placeholder="No cap"
        className="max-w-xs"
        aria-describedby="spend-caps-hint"
        value={value[key] ?? ''}
        onChange={(e) => {
          const text = e.target.value.trim();
          onChange({ ...value, [key]: text === '' ? null : text });
        }}
      />
    </Field>
  );
  return (
    <div className="grid gap-4">
      {field('dailySpendCap', 'daily-spend-cap', 'Daily spend cap (USD)')}
      {field('monthlySpendCap', 'monthly-spend-cap', 'Monthly spend cap (USD)')}
      <p id="spend-caps-hint" className="text-xs text-muted-foreground">
        {HINT}
      </p>
    </div>
  );
}
