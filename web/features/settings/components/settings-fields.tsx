import type { ReactNode } from 'react';
import { Field, Select } from '../../../components/ui/field';

/** A tab or a group of fields editing one part of the settings object. */
export interface PartProps<T> {
  value: T;
  onChange: (next: T) => void;
}

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly T[];
  labels?: Partial<Record<T, string>>;
  hint?: ReactNode;
  onChange: (value: T) => void;
}

/** A labelled select over one of the settings' option lists. */
export function SelectField<T extends string>(props: SelectFieldProps<T>) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint}>
      <Select
        id={props.id}
        value={props.value}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value as T)}
      >
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.labels?.[option] ?? option}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-4">
      <h3 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}
