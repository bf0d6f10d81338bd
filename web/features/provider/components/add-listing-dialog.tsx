import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import { LISTABLE_MODELS } from '../../../../shared/gpu-models';
import {
  BANDWIDTH_OPTIONS,
  COOLING_OPTIONS,
  MEMORY_OPTIONS,
  PCIE_OPTIONS,
} from '../../../../shared/listing-options';
import { formatMoney } from '../../../../shared/rules/currency';
import { dailyRate, monthlyRate } from '../../../../shared/rules/pricing';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Select, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useCreateListing } from '../api/create-listing';
import { serverFieldErrors } from '../api/field-errors';
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

const FORM_ID = 'add-listing-form';
const id = (name: string) => `add-listing-${name}`;

function Required() {
  return (
    <span aria-hidden className="text-danger-text">
      {' '}
      *
    </span>
  );
}

interface AddListingDialogProps {
  providerId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Add New GPU Listing (spec part 1 sections 5 and 7). */
export function AddListingDialog({ providerId, open, onOpenChange }: AddListingDialogProps) {
  const [values, setValues] = useState<ListingFormValues>(initialListingForm);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const createListing = useCreateListing();
  const set = (name: keyof ListingFormValues) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const hourly = parseHourlyRate(values.hourlyRate);

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      setValues(initialListingForm());
      setFieldErrors({});
    }
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
    setFieldErrors({});
    try {
      await createListing.mutateAsync(toCreateListingPayload(values, providerId));
      toast({
        title: 'GPU Added Successfully!',
        description: 'Your GPU listing is now available in the marketplace.',
      });
      close(false);
    } catch (error) {
      setFieldErrors(serverFieldErrors(error));
      toast({
        title: 'Failed to Add GPU',
        description: serverMessage(error, 'Failed to add GPU listing. Please try again.'),
        variant: 'destructive',
      });
    }
  }

  const described = (name: string) =>
    fieldErrors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Add New GPU Listing"
      description="List a GPU in the marketplace. Fields marked * are required."
      className="max-w-2xl"
      footer={
        <>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={FORM_ID}
            variant="provider"
            disabled={createListing.isPending}
          >
            {createListing.isPending ? 'Adding...' : 'Add GPU Listing'}
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        noValidate
        onSubmit={onSubmit}
        className="grid items-start gap-4 sm:grid-cols-2"
      >
        <Field
          id={id('model')}
          label={
            <>
              GPU Model
              <Required />
            </>
          }
          error={fieldErrors.model}
        >
          <Select
            id={id('model')}
            value={values.model}
            onChange={(e) => setValues((current) => withModel(current, e.target.value))}
            {...described('model')}
            placeholder="Select a GPU model"
            options={LISTABLE_MODELS}
          />
        </Field>
        <Field
          id={id('memory')}
          label={
            <>
              Memory
              <Required />
            </>
          }
          error={fieldErrors.memory}
        >
          <Select
            id={id('memory')}
            value={values.memory}
            onChange={(e) => set('memory')(e.target.value)}
            {...described('memory')}
            placeholder="Select memory"
            options={MEMORY_OPTIONS}
          />
        </Field>
        <Field
          id={id('cudaCores')}
          label="CUDA Cores"
          hint="Optional; filled in from the model"
          error={fieldErrors.cudaCores}
        >
          <Input
            id={id('cudaCores')}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={values.cudaCores}
            onChange={(e) => set('cudaCores')(e.target.value)}
            {...described('cudaCores')}
          />
        </Field>
        <Field
          id={id('location')}
          label={
            <>
              Location
              <Required />
            </>
          }
          error={fieldErrors.location}
        >
          <Input
            id={id('location')}
            placeholder="City, Country"
            maxLength={TEXT_LIMITS.listingLocation}
            autoComplete="off"
            value={values.location}
            onChange={(e) => set('location')(e.target.value)}
            {...described('location')}
          />
        </Field>
        <Field id={id('bandwidth')} label="Bandwidth" error={fieldErrors.bandwidth}>
          <Select
            id={id('bandwidth')}
            value={values.bandwidth}
            onChange={(e) => set('bandwidth')(e.target.value)}
            options={BANDWIDTH_OPTIONS}
          />
        </Field>
        <Field
          id={id('hourlyRate')}
          label={
            <>
              Hourly Rate (USD)
              <Required />
            </>
          }
          error={fieldErrors.hourlyRate}
        >
          <Input
            id={id('hourlyRate')}
            type="number"
            inputMode="decimal"
            min={0.01}
            step={0.01}
            placeholder="1.50"
            value={values.hourlyRate}
            onChange={(e) => set('hourlyRate')(e.target.value)}
            {...described('hourlyRate')}
          />
        </Field>
        <Field
          id={id('availableCount')}
          label="Available Count"
          hint="How many identical GPUs you offer (at least 1)"
          error={fieldErrors.availableCount}
        >
          <Input
            id={id('availableCount')}
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            value={values.availableCount}
            onChange={(e) => set('availableCount')(e.target.value)}
            onBlur={() => set('availableCount')(String(parseAvailableCount(values.availableCount)))}
            {...described('availableCount')}
          />
        </Field>
        <HostSelect
          id={id('hostId')}
          value={values.hostId}
          onChange={set('hostId')}
          error={fieldErrors.hostId ?? fieldErrors.hostGpuIndexes}
        />
        <Field id={id('pcieLanes')} label="PCIe Lanes">
          <Select
            id={id('pcieLanes')}
            value={values.pcieLanes}
            onChange={(e) => set('pcieLanes')(e.target.value)}
            options={PCIE_OPTIONS}
          />
        </Field>
        <Field id={id('powerConsumption')} label="Power Consumption">
          <Input
            id={id('powerConsumption')}
            placeholder="450W"
            maxLength={TEXT_LIMITS.powerConsumption}
            value={values.powerConsumption}
            onChange={(e) => set('powerConsumption')(e.target.value)}
          />
        </Field>
        <Field id={id('cooling')} label="Cooling">
          <Select
            id={id('cooling')}
            value={values.cooling}
            onChange={(e) => set('cooling')(e.target.value)}
            options={COOLING_OPTIONS}
          />
        </Field>
        <Field
          id={id('additionalSpecs')}
          label="Additional Specs"
          className="sm:col-span-2"
          error={fieldErrors.specifications}
        >
          <Textarea
            id={id('additionalSpecs')}
            rows={3}
            maxLength={TEXT_LIMITS.additionalSpecs}
            placeholder="CPU, RAM, storage, NVLink…"
            value={values.additionalSpecs}
            onChange={(e) => set('additionalSpecs')(e.target.value)}
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
      </form>
    </Dialog>
  );
}
