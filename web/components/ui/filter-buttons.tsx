import { cn } from '../../lib/cn';
import { buttonClasses } from './button';

/**
 * Which part of a list to show: one pressed button of a group (aria-pressed), the group named
 * by a legend that only screen readers read.
 */
export function FilterButtons<T extends string>({
  legend,
  options,
  value,
  onChange,
  className,
}: {
  legend: string;
  /** Each choice's value and label, in order. */
  options: readonly (readonly [T, string])[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="sr-only">{legend}</legend>
      {options.map(([option, label]) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={cn(
            buttonClasses(value === option ? 'secondary' : 'ghost', 'sm'),
            value === option && 'ring-1 ring-border',
          )}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}
