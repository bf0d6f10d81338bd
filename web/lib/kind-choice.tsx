import type { InstanceKind } from '../../shared/instance-kinds';
import { cn } from './cn';
import { KIND_HINTS, KIND_LABELS } from './instance-kinds';

interface KindChoiceProps {
  /** The radio group's name, unique on the page. */
  name: string;
  value: InstanceKind;
  /** The kinds to offer (offeredKinds), VM first. */
  offered: readonly InstanceKind[];
  onChange: (kind: InstanceKind) => void;
  disabled?: boolean;
  /** In a narrow column (Instant Deploy's side card on wide screens): one choice under the other. */
  narrow?: boolean;
  className?: string;
}

/**
 * Virtual machine or Container as one radio group under the legend "Kind", shown as two
 * side-by-side choices (arrow keys move between them). Used by the VM dashboard's create form
 * and Instant Deploy, where the host offers both.
 */
export function KindChoice({
  name,
  value,
  offered,
  onChange,
  disabled,
  narrow,
  className,
}: KindChoiceProps) {
  return (
    <fieldset className={cn('grid min-w-0 gap-1.5', className)} disabled={disabled}>
      <legend className="mb-1.5 text-sm font-medium">Kind</legend>
      <div className={cn('grid gap-2 sm:grid-cols-2', narrow && 'lg:grid-cols-1')}>
        {offered.map((kind) => {
          const selected = value === kind;
          const hintId = `${name}-${kind}-hint`;
          return (
            <label
              key={kind}
              data-testid={`kind-${kind}`}
              className={cn(
                'grid cursor-pointer content-start gap-0.5 rounded-md border bg-background px-3 py-2 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50',
                selected
                  ? 'border-primary ring-1 ring-primary'
                  : 'border-input hover:border-primary/60',
              )}
            >
              <span className="flex items-center gap-2 font-medium">
                <input
                  type="radio"
                  name={name}
                  value={kind}
                  checked={selected}
                  onChange={() => onChange(kind)}
                  className="h-4 w-4 accent-primary"
                  aria-describedby={hintId}
                />
                {KIND_LABELS[kind]}
              </span>
              <span id={hintId} className="pl-6 text-xs text-muted-foreground">
                {KIND_HINTS[kind]}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
