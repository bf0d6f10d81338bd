import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { LISTABLE_MODELS } from '../../../../shared/gpu-models';
import { COOLING_OPTIONS, MEMORY_OPTIONS, PCIE_OPTIONS } from '../../../../shared/listing-options';
import { LISTING_TEXT } from '../../../../shared/listing-text';
import { formatMoney } from '../../../../shared/rules/currency';
import { dailyRate, hostCanRun, monthlyRate } from '../../../../shared/rules/pricing';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Textarea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { useCreateListing } from '../api/create-listing';
import { useUpdateListing } from '../api/update-listing';
import {
  type EditListingValues,
  editValuesOf,
  listingChanges,
  unitsRented,
} from '../utils/listing-edit';
import {
  initialListingForm,
  type ListingFormValues,
  missingFields,
  parseAvailableCount,
  parseHourlyRate,
  toCreateListingPayload,
  withModel,
} from '../utils/listing-form';
import {
  BandwidthField,
  COUNT_INPUT,
  InputField,
  ListingForm,
  ListingHostSelect,
  RATE_INPUT,
  SelectField,
  useListingForm,
} from './listing-form-parts';

interface AddListingDialogProps {
  providerId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Add New GPU Listing: model, memory, location and hourly rate are required (each missing one
 * says so under its field, the first takes the focus); choosing a model fills in its memory,
 * CUDA cores and power draw; the server's refusals (a memory not the model's) show under their
 * fields too; the daily and monthly rates follow the hourly.
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
    const missing = missingFields(values);
    if (Object.keys(missing).length > 0) {
      form.showErrors(missing);
      toast({
        title: LISTING_TEXT.missingTitle,
        description: LISTING_TEXT.missingDescription,
        variant: 'destructive',
      });
      return;
    }
    await form.save(
      async () => {
        const created = await createListing.mutateAsync(toCreateListingPayload(values, providerId));
        toast({
          title: LISTING_TEXT.addedTitle,
          // Without a ready host it is saved but kept out of the marketplace: it says so.
          description: hostCanRun(created)
            ? LISTING_TEXT.addedDescription
            : LISTING_TEXT.addedWithoutHostDescription,
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
        formId={form.formId}
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
          onChange={(e) => {
            form.setValues((current) => withModel(current, e.target.value));
            form.clearError('model');
            form.clearError('memory');
          }}
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
            {...(form.fieldErrors.specifications
              ? {
                  'aria-invalid': true,
                  'aria-describedby': `${form.id('additionalSpecs')}-error`,
                }
              : {})}
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
      formId={form.formId}
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
