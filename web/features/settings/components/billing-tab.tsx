import type { UserSettings } from '../../../../shared/contracts/settings';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import type { PartProps } from './settings-fields';

type Billing = UserSettings['billing'];

const HINT =
  'You are warned (e-mail and a banner) when your balance falls below this. Empty: one hour of what your running instances cost.';

/** The low-balance threshold: a real setting the billing worker checks. */
export function BillingTab({ value, onChange }: PartProps<Billing>) {
  return (
    <Field id="low-balance-threshold" label="Low-balance threshold (USD)" hint={HINT}>
      <Input
        id="low-balance-threshold"
        inputMode="decimal"
        placeholder="One hour of spend"
        className="max-w-xs"
        aria-describedby="low-balance-threshold-hint"
        value={value.lowBalanceThreshold ?? ''}
        onChange={(e) => {
          const text = e.target.value.trim();
          onChange({ ...value, lowBalanceThreshold: text === '' ? null : text });
        }}
      />
    </Field>
  );
}
