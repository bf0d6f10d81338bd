import {
  type ComponentProps,
  type FormEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { BANDWIDTH_OPTIONS } from '../../../../shared/listing-options';
import { Button, type ButtonVariant } from '../../../components/ui/button';
import { Field, Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import type { ListingFormValues } from '../utils/listing-form';
import { HostSelect } from './host-select';

/*
 * The parts both listing dialogs (listing-dialogs.tsx) are made of: the form's state with its
 * per-field messages, the labelled fields, and the form's frame with Cancel and submit.
 */

export const RATE_INPUT = { type: 'number', inputMode: 'decimal', min: 0.01, step: 0.01 } as const;
export const COUNT_INPUT = { type: 'number', inputMode: 'numeric', max: 1000, step: 1 } as const;

/** The fields both dialogs have, as the form holds them (text as typed). */
export type SharedValues = Pick<
  ListingFormValues,
  'hourlyRate' | 'location' | 'bandwidth' | 'hostId'
>;

/**
 * A listing form's state: the values, and the per-field messages (the form's own checks or the
 * server's), each shown under its field and tied to its control (`described`). Ids are
 * `<prefix>-<field>`; the form is `<prefix>-form`. When messages are shown the first invalid
 * control takes the focus; changing a field clears its message.
 */
export function useListingForm<V extends SharedValues>(prefix: string, initial: () => V) {
  const [values, setValues] = useState<V>(initial);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const focusInvalid = useRef(false);
  const id = (name: string) => `${prefix}-${name}`;
  const formId = `${prefix}-form`;

  useEffect(() => {
    if (!focusInvalid.current || Object.keys(fieldErrors).length === 0) return;
    focusInvalid.current = false;
    document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fieldErrors, formId]);

  /** Shows these messages under their fields and moves the focus to the first. */
  function showErrors(errors: Record<string, string>) {
    focusInvalid.current = true;
    setFieldErrors(errors);
  }
  function clearError(name: string) {
    setFieldErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
  }
  const set = (name: keyof V & string) => (value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    clearError(name);
  };
  /** A control's id, value and change handler. */
  const control = (name: keyof V & string) => ({
    id: id(name),
    value: String(values[name]),
    onChange: (event: { target: { value: string } }) => set(name)(event.target.value),
  });
  const described = (name: string) =>
    fieldErrors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};

  /** Runs a save; on failure the fields' messages and a toast. Returns the failure's text. */
  async function save(
    run: () => Promise<void>,
    failure: { title: string; fallback: string },
  ): Promise<string | null> {
    setFieldErrors({});
    try {
      await run();
      return null;
    } catch (error) {
      const message = serverMessage(error, failure.fallback);
      showErrors(serverFieldErrors(error));
      toast({ title: failure.title, description: message, variant: 'destructive' });
      return message;
    }
  }

  function reset() {
    setValues(initial());
    setFieldErrors({});
  }

  return {
    values,
    setValues,
    set,
    fieldErrors,
    showErrors,
    clearError,
    id,
    formId,
    control,
    described,
    save,
    reset,
  };
}

/** What a field needs of its form: ids, a control's value and handler, the server's message. */
export interface FormControls<K extends string> {
  fieldErrors: Record<string, string>;
  id: (name: string) => string;
  control: (name: K) => {
    id: string;
    value: string;
    onChange: (event: { target: { value: string } }) => void;
  };
  described: (name: string) => { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}

export type SharedForm = FormControls<keyof SharedValues> & {
  values: SharedValues;
  set: (name: keyof SharedValues) => (value: string) => void;
};

function Required() {
  return (
    <span aria-hidden className="text-danger-text">
      {' '}
      *
    </span>
  );
}

interface FieldOf<K extends string> {
  form: FormControls<K>;
  name: K;
  label: string;
  /** Marks the label with a red *. */
  required?: boolean;
  hint?: string;
  /** The field's (not the control's) classes. */
  className?: string;
}

function splitField<K extends string, P>({
  form,
  name,
  label,
  required,
  hint,
  className,
  ...control
}: FieldOf<K> & P) {
  return [{ form, name, label, required, hint, className }, control] as const;
}

/** A field of the form: its label, its hint or the server's message, and its control. */
function FormField<K extends string>({
  field: { form, name, label, required = false, hint, className },
  children,
}: {
  field: FieldOf<K>;
  children: ReactNode;
}) {
  return (
    <Field
      id={form.id(name)}
      label={
        <>
          {label}
          {required ? <Required /> : null}
        </>
      }
      hint={hint}
      error={form.fieldErrors[name]}
      className={className}
    >
      {children}
    </Field>
  );
}

/** A control's binding to its field: id, value, change handler, and the server's message. */
function bound<K extends string>({ form, name }: FieldOf<K>) {
  return { ...form.control(name), ...form.described(name) };
}

export function InputField<K extends string>(
  props: FieldOf<K> & Omit<ComponentProps<'input'>, keyof FieldOf<K>>,
) {
  const [field, input] = splitField(props);
  return (
    <FormField field={field}>
      <Input {...bound(field)} {...input} />
    </FormField>
  );
}

/** As InputField; an `onChange` given here replaces the field's own. */
export function SelectField<K extends string>(
  props: FieldOf<K> & Omit<ComponentProps<typeof Select>, keyof FieldOf<K>>,
) {
  const [field, select] = splitField(props);
  return (
    <FormField field={field}>
      <Select {...bound(field)} {...select} />
    </FormField>
  );
}

/** `keep`: the listing's own speed, offered as a choice too when it is outside the list. */
export function BandwidthField({ form, keep }: { form: SharedForm; keep?: string }) {
  const outside = keep !== undefined && !(BANDWIDTH_OPTIONS as readonly string[]).includes(keep);
  return (
    <SelectField form={form} name="bandwidth" label="Bandwidth" options={BANDWIDTH_OPTIONS}>
      {outside ? <option value={keep}>{keep}</option> : null}
    </SelectField>
  );
}

export function ListingHostSelect({ form, className }: { form: SharedForm; className?: string }) {
  return (
    <HostSelect
      id={form.id('hostId')}
      value={form.values.hostId}
      onChange={form.set('hostId')}
      error={form.fieldErrors.hostId ?? form.fieldErrors.hostGpuIndexes}
      className={className}
    />
  );
}

/** The form in two columns, the failure's text when it is kept, then Cancel and submit. */
export function ListingForm({
  formId,
  onSubmit,
  failure,
  onCancel,
  pending,
  submit,
  children,
}: {
  formId: string;
  onSubmit: (event: FormEvent) => void;
  failure?: string | null;
  onCancel: () => void;
  pending: boolean;
  submit: { label: string; pendingLabel: string; variant?: ButtonVariant };
  children: ReactNode;
}) {
  return (
    <>
      <form
        id={formId}
        noValidate
        onSubmit={onSubmit}
        className="grid items-start gap-4 sm:grid-cols-2"
      >
        {children}
      </form>
      {failure ? (
        <p
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger-text"
        >
          {failure}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" form={formId} variant={submit.variant} disabled={pending}>
          {pending ? submit.pendingLabel : submit.label}
        </Button>
      </div>
    </>
  );
}
