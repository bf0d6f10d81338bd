import { Check } from 'lucide-react';
import { cn } from '../../../lib/cn';

/** Items clicked on and off (GPU models, security measures, certifications). */
export function ToggleList({
  id,
  label,
  items,
  selected,
  onToggle,
  hint,
  hintIsError,
}: {
  /** The legend's id (the form focuses it on an error); the hint's is `<id>-hint`. */
  id: string;
  label: string;
  items: readonly string[];
  selected: readonly string[];
  onToggle: (item: string) => void;
  hint?: string | null;
  hintIsError?: boolean;
}) {
  const hintId = `${id}-hint`;
  return (
    <fieldset className="grid gap-2 sm:col-span-2" aria-describedby={hint ? hintId : undefined}>
      <legend id={id} tabIndex={-1} className="mb-2 text-sm font-medium">
        {label}
      </legend>
      <div className="flex flex-wrap gap-2">
        {items.map((item) => {
          const on = selected.includes(item);
          return (
            <button
              key={item}
              type="button"
              aria-pressed={on}
              onClick={() => onToggle(item)}
              className={cn(
                'inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3 py-1 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                on
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'border-border bg-background hover:bg-muted',
              )}
            >
              {on ? <Check className="h-3.5 w-3.5" aria-hidden /> : null}
              {item}
            </button>
          );
        })}
      </div>
      {hint ? (
        <p
          id={hintId}
          className={cn('text-xs', hintIsError ? 'text-danger-text' : 'text-muted-foreground')}
          role={hintIsError ? 'alert' : undefined}
        >
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}
