import type { EventType } from '../../../../shared/contracts/events';
import { cn } from '../../../lib/cn';
import { EVENT_TYPE_DESCRIPTIONS, EVENT_TYPE_GROUPS } from '../../../lib/event-types';

interface EventTypePickerProps {
  /** null: all events (`*`); otherwise the chosen types. */
  value: EventType[] | null;
  onChange: (value: EventType[] | null) => void;
  error?: string | null;
}

/** All events, or a choice of types grouped by what they are about. */
export function EventTypePicker({ value, onChange, error }: EventTypePickerProps) {
  const all = value === null;
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? 'webhook-types-error' : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-1 text-sm font-medium">Events to send</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="radio"
          name="webhook-types-mode"
          className="h-4 w-4"
          checked={all}
          onChange={() => onChange(null)}
        />
        All events, including types added later
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="radio"
          name="webhook-types-mode"
          className="h-4 w-4"
          checked={!all}
          onChange={() => onChange(value ?? [])}
        />
        Only the events I choose
      </label>
      {all ? null : (
        <div className="grid gap-4 rounded-md border border-border p-3 sm:grid-cols-2">
          {EVENT_TYPE_GROUPS.map((group) => (
            <fieldset key={group.subject} className="grid content-start gap-1.5">
              <legend className="mb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {group.label}
              </legend>
              {group.types.map((type) => (
                <label
                  key={type}
                  className="flex items-start gap-2 text-sm"
                  title={EVENT_TYPE_DESCRIPTIONS[type]}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 h-4 w-4 shrink-0"
                    checked={value.includes(type)}
                    onChange={(e) =>
                      onChange(
                        e.target.checked ? [...value, type] : value.filter((t) => t !== type),
                      )
                    }
                  />
                  <span className="min-w-0 font-mono text-xs leading-5 break-all">{type}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      )}
      {error ? (
        <p id="webhook-types-error" className={cn('text-xs text-danger-text')} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
