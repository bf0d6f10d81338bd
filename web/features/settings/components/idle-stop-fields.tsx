import type { UserSettings } from '../../../../shared/contracts/settings';
import { IDLE_STOP_CHOICES } from '../../../../shared/rules/idle-stop';
import { Field, Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import type { PartProps } from './settings-fields';

type Billing = UserSettings['billing'];

const HINT =
  'New metered instances that do not set their own are stopped (never deleted) once their GPU stays under the threshold and nobody is logged in over SSH or the web console for this long; you are warned 10 minutes before.';

/** The account's default idle stop (docs/decisions/019). */
export function IdleStopFields({ value, onChange }: PartProps<Billing>) {
  const minutes = String(value.idleStopMinutes);
  const offered = IDLE_STOP_CHOICES.some((c) => c.value === minutes)
    ? IDLE_STOP_CHOICES
    : [...IDLE_STOP_CHOICES, { value: minutes, label: `After ${minutes} minutes idle` }];
  return (
    <div className="grid gap-4">
      <Field id="idle-stop-default" label="Idle stop (default for new instances)">
        <Select
          id="idle-stop-default"
          className="max-w-xs"
          aria-describedby="idle-stop-hint"
          value={minutes}
          onChange={(e) => onChange({ ...value, idleStopMinutes: Number(e.target.value) })}
          options={offered}
        />
      </Field>
      <Field id="idle-threshold" label="Idle threshold (GPU %)">
        <Input
          id="idle-threshold"
          type="number"
          min={1}
          max={100}
          className="max-w-xs"
          aria-describedby="idle-stop-hint"
          value={value.idleThresholdPercent}
          onChange={(e) => onChange({ ...value, idleThresholdPercent: Number(e.target.value) })}
        />
      </Field>
      <p id="idle-stop-hint" className="text-xs text-muted-foreground">
        {HINT}
      </p>
    </div>
  );
}
