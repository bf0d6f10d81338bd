import { type ComponentProps, type FormEvent, type ReactNode, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { LISTABLE_MODELS } from '../../../../shared/gpu-models';
import {
  BANDWIDTH_OPTIONS,
  COOLING_OPTIONS,
  MEMORY_OPTIONS,
  PCIE_OPTIONS,
} from '../../../../shared/listing-options';
import { formatMoney } from '../../../../shared/rules/currency';
import { dailyRate, monthlyRate } from '../../../../shared/rules/pricing';
import { Button, type ButtonVariant } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Select, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import { useCreateListing } from '../api/create-listing';
import { useUpdateListing } from '../api/update-listing';
import {
  type EditListingValues,
  editValuesOf,
  listingChanges,
  unitsRented,
} from '../utils/listing-edit';
import {
  hasRequiredFields,
  initialListingForm,
  type ListingFormValues,
  parseAvailableCount,
  parseHourlyRate,
  toCreateListingPayload,
  withModel,
} from '../utils/listing-form';
import { HostSelect } from './host-select';

const RATE_INPUT = { type: 'number', inputMode: 'decimal', min: 0.01, step: 0.01 } as const;
const COUNT_INPUT = { type: 'number', inputMode: 'numeric', max: 1000, step: 1 } as const;

/** The fields both dialogs have, as the form holds them (text as typed). */
type SharedValues = Pick<ListingFormValues, 'hourlyRate' | 'location' | 'bandwidth' | 'hostId'>;

/**
 * A listing form's state: the values, and the server's per-field messages, each shown under
 * its field and tied to its control (`described`). Ids are `<prefix>-<field>`.
 */
function useListingForm<V extends SharedValues>(prefix: string, initial: () => V) {
  const [values, setValues] = useState<V>(initial);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const id = (name: string) => `${prefix}-${name}`;
  const set = (name: keyof V) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
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
      setFieldErrors(serverFieldErrors(error));
      toast({ title: failure.title, description: message, variant: 'destructive' });
      return message;
    }
  }

  function reset() {
    setValues(initial());
    setFieldErrors({});
  }

  return { values, setValues, set, fieldErrors, id, control, described, save, reset };
}

/** What a field needs of its form: ids, a control's value and handler, the server's message. */
interface FormControls<K extends string> {
  fieldErrors: Record<string, string>;
  id: (name: string) => string;
  control: (name: K) => {
    id: string;
    value: string;
    onChange: (event: { target: { value: string } }) => void;
  };
  described: (name: string) => { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}

type SharedForm = FormControls<keyof SharedValues> & {
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

function InputField<K extends string>(
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
function SelectField<K extends string>(
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
function BandwidthField({ form, keep }: { form: SharedForm; keep?: string }) {
  const outside = keep !== undefined && !(BANDWIDTH_OPTIONS as readonly string[]).includes(keep);
  return (
    <SelectField form={form} name="bandwidth" label="Bandwidth" options={BANDWIDTH_OPTIONS}>
      {outside ? <option value={keep}>{keep}</option> : null}
    </SelectField>
  );
}

function ListingHostSelect({ form, className }: { form: SharedForm; className?: string }) {
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
function ListingForm({
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

interface AddListingDialogProps {
  providerId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Add New GPU Listing: model, memory, location and hourly rate are required; choosing a model
 * fills in its memory, CUDA cores and power draw; the daily and monthly rates follow the hourly.
 */
export function AddListingDialog({ providerId, open, onOpenChange }: AddListingDialogProps) {
  const form = useListingForm<ListingFormValues>('add-listing', initialListingForm);
  const { values, set } = form;
  const createListing = useCreateListing();
  const hourly = parseHourlyRate(values.hourlyRate);

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) form.reset();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!hasRequiredFields(values)) {
      toast({
        title: 'Missing Information',
        description: 'Please fill in all required fields.',
        variant: 'destructive',
      });
      return;
    }
    await form.save(
      async () => {
        await createListing.mutateAsync(toCreateListingPayload(values, providerId));
        toast({
          title: 'GPU Added Successfully!',
          description: 'Your GPU listing is now available in the marketplace.',
        });
        close(false);
      },
      { title: 'Failed to Add GPU', fallback: 'Failed to add GPU listing. Please try again.' },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Add New GPU Listing"
      description="List a GPU in the marketplace. Fields marked * are required."
      className="max-w-2xl"
    >
      <ListingForm
        formId="add-listing-form"
        onSubmit={onSubmit}
        onCancel={() => close(false)}
        pending={createListing.isPending}
        submit={{ label: 'Add GPU Listing', pendingLabel: 'Adding...', variant: 'provider' }}
      >
        <SelectField
          form={form}
          name="model"
          label="GPU Model"
          required
          onChange={(e) => form.setValues((current) => withModel(current, e.target.value))}
          placeholder="Select a GPU model"
          options={LISTABLE_MODELS}
        />
        <SelectField
          form={form}
          name="memory"
          label="Memory"
          required
          placeholder="Select memory"
          options={MEMORY_OPTIONS}
        />
        <InputField
          form={form}
          name="cudaCores"
          label="CUDA Cores"
          hint="Optional; filled in from the model"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
        />
        <InputField
          form={form}
          name="location"
          label="Location"
          required
          placeholder="City, Country"
          maxLength={TEXT_LIMITS.listingLocation}
          autoComplete="off"
        />
        <BandwidthField form={form} />
        <InputField
          form={form}
          name="hourlyRate"
          label="Hourly Rate (USD)"
          required
          {...RATE_INPUT}
          placeholder="1.50"
        />
        <InputField
          form={form}
          name="availableCount"
          label="Available Count"
          hint="How many identical GPUs you offer (at least 1)"
          {...COUNT_INPUT}
          min={1}
          onBlur={() => set('availableCount')(String(parseAvailableCount(values.availableCount)))}
        />
        <ListingHostSelect form={form} />
        <SelectField form={form} name="pcieLanes" label="PCIe Lanes" options={PCIE_OPTIONS} />
        <InputField
          form={form}
          name="powerConsumption"
          label="Power Consumption"
          placeholder="450W"
          maxLength={TEXT_LIMITS.powerConsumption}
        />
        <SelectField form={form} name="cooling" label="Cooling" options={COOLING_OPTIONS} />
        <Field
          id={form.id('additionalSpecs')}
          label="Additional Specs"
          className="sm:col-span-2"
          error={form.fieldErrors.specifications}
        >
          <Textarea
            rows={3}
            maxLength={TEXT_LIMITS.additionalSpecs}
            placeholder="CPU, RAM, storage, NVLink…"
            {...form.control('additionalSpecs')}
          />
        </Field>
        <div
          className="grid grid-cols-2 gap-3 rounded-lg bg-muted p-3 text-sm sm:col-span-2"
          aria-live="polite"
        >
          <div>
            <p className="text-muted-foreground">Daily rate</p>
            <p className="font-semibold tabular-nums" data-testid="daily-rate">
              {formatMoney(hourly === null ? 0 : dailyRate(hourly))}
            </p>
          </div>
          <div>
            <p className="text-muted-foreground">Monthly rate</p>
            <p className="font-semibold tabular-nums" data-testid="monthly-rate">
              {formatMoney(hourly === null ? 0 : monthlyRate(hourly))}
            </p>
          </div>
        </div>
      </ListingForm>
    </Dialog>
  );
}

function EditListingForm({ listing, onDone }: { listing: GpuListingView; onDone: () => void }) {
  const form = useListingForm<EditListingValues>('edit-listing', () => editValuesOf(listing));
  const [formError, setFormError] = useState<string | null>(null);
  const updateListing = useUpdateListing();
  const rented = unitsRented(listing);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes = listingChanges(listing, form.values);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    setFormError(null);
    const failure = await form.save(
      async () => {
        const updated = await updateListing.mutateAsync({ id: listing.id, changes });
        toast({
          title: 'Listing Updated',
          description: `${updated.model} in ${updated.location} now rents at ${formatMoney(updated.hourlyRate)}/hr.`,
        });
        onDone();
      },
      {
        title: 'Failed to Update Listing',
        fallback: 'Failed to update the listing. Please try again.',
      },
    );
    if (failure) setFormError(failure);
  }

  return (
    <ListingForm
      formId="edit-listing-form"
      onSubmit={onSubmit}
      failure={formError}
      onCancel={onDone}
      pending={updateListing.isPending}
      submit={{ label: 'Save Changes', pendingLabel: 'Saving...' }}
    >
      <InputField form={form} name="hourlyRate" label="Hourly Rate (USD)" {...RATE_INPUT} />
      <InputField
        form={form}
        name="location"
        label="Location"
        maxLength={TEXT_LIMITS.listingLocation}
        autoComplete="off"
      />
      <BandwidthField form={form} keep={listing.bandwidth} />
      <InputField
        form={form}
        name="totalCount"
        label="Total Count"
        hint={
          rented > 0
            ? `${rented} rented right now; the total cannot go below that.`
            : 'How many identical GPUs you offer'
        }
        {...COUNT_INPUT}
        min={Math.max(1, rented)}
      />
      <ListingHostSelect form={form} className="sm:col-span-2" />
      <SelectField
        form={form}
        name="status"
        label="Status"
        hint="In maintenance the listing leaves the marketplace; running rentals go on."
        className="sm:col-span-2"
      >
        <option value="available">Available</option>
        <option value="maintenance">Maintenance</option>
      </SelectField>
    </ListingForm>
  );
}

/** Edit a listing's price, location, bandwidth, count, host and status. */
export function EditListingDialog({
  listing,
  onClose,
}: {
  listing: GpuListingView | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={listing !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Edit GPU Listing"
      description={listing ? `${listing.model} · ${listing.memory} · ${listing.location}` : ''}
      className="max-w-xl"
    >
      {listing ? <EditListingForm key={listing.id} listing={listing} onDone={onClose} /> : null}
    </Dialog>
  );
}
