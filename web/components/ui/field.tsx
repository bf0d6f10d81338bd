import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

const control =
  'w-full rounded-md border border-input bg-background px-3 text-sm text-foreground placeholder:text-muted-foreground disabled:opacity-50';

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
  className?: string;
}

/** A label, its control, and a hint or error tied to it for screen readers. */
export function Field({ id, label, hint, error, children, className }: FieldProps) {
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-danger-text" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A choice of a Select: a value that is its own label, or a value and its label. */
type Choice = string | { value: string | number; label: string };

interface SelectProps extends ComponentProps<'select'> {
  /** Choices listed after any children. */
  options?: readonly Choice[];
  /** A first, unselectable "choose one" entry. */
  placeholder?: string;
}

export function Select({ className, children, options, placeholder, ...props }: SelectProps) {
  return (
    <select className={cn(control, 'h-10', className)} {...props}>
      {placeholder ? (
        <option value="" disabled>
          {placeholder}
        </option>
      ) : null}
      {children}
      {options?.map((option) => {
        const { value, label } =
          typeof option === 'string' ? { value: option, label: option } : option;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </select>
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(control, 'py-2', className)} {...props} />;
}
