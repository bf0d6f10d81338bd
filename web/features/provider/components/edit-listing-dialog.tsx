import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { BANDWIDTH_OPTIONS } from '../../../../shared/listing-options';
import { formatMoney } from '../../../../shared/rules/currency';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { serverFieldErrors } from '../api/field-errors';
import { useUpdateListing } from '../api/update-listing';
import {
  type EditListingValues,
  editValuesOf,
  listingChanges,
  unitsRented,
} from '../utils/listing-edit';
import { HostSelect } from './host-select';

const FORM_ID = 'edit-listing-form';
const id = (name: string) => `edit-listing-${name}`;
const FALLBACK = 'Failed to update the listing. Please try again.';

function EditListingForm({ listing, onDone }: { listing: GpuListingView; onDone: () => void }) {
  const [values, setValues] = useState<EditListingValues>(() => editValuesOf(listing));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const updateListing = useUpdateListing();
  const rented = unitsRented(listing);
  const set = (name: keyof EditListingValues) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes = listingChanges(listing, values);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    setFieldErrors({});
    setFormError(null);
    try {
      const updated = await updateListing.mutateAsync({ id: listing.id, changes });
      toast({
        title: 'Listing Updated',
        description: `${updated.model} in ${updated.location} now rents at ${formatMoney(updated.hourlyRate)}/hr.`,
      });
      onDone();
    } catch (error) {
      const message = serverMessage(error, FALLBACK);
      setFieldErrors(serverFieldErrors(error));
      setFormError(message);
      toast({ title: 'Failed to Update Listing', description: message, variant: 'destructive' });
    }
  }

  const described = (name: string) =>
    fieldErrors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};

  return (
    <>
      <form
        id={FORM_ID}
        noValidate
        onSubmit={onSubmit}
        className="grid items-start gap-4 sm:grid-cols-2"
      >
        <Field id={id('hourlyRate')} label="Hourly Rate (USD)" error={fieldErrors.hourlyRate}>
          <Input
            id={id('hourlyRate')}
            type="number"
            inputMode="decimal"
            min={0.01}
            step={0.01}
            value={values.hourlyRate}
            onChange={(e) => set('hourlyRate')(e.target.value)}
            {...described('hourlyRate')}
          />
        </Field>
        <Field id={id('location')} label="Location" error={fieldErrors.location}>
          <Input
            id={id('location')}
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
          >
            {/* A listing seeded with a speed outside the list keeps it as a choice. */}
            {(BANDWIDTH_OPTIONS as readonly string[]).includes(listing.bandwidth) ? null : (
              <option value={listing.bandwidth}>{listing.bandwidth}</option>
            )}
          </Select>
        </Field>
        <Field
          id={id('totalCount')}
          label="Total Count"
          hint={
            rented > 0
              ? `${rented} rented right now; the total cannot go below that.`
              : 'How many identical GPUs you offer'
          }
          error={fieldErrors.totalCount}
        >
          <Input
            id={id('totalCount')}
            type="number"
            inputMode="numeric"
            min={Math.max(1, rented)}
            max={1000}
            step={1}
            value={values.totalCount}
            onChange={(e) => set('totalCount')(e.target.value)}
            {...described('totalCount')}
          />
        </Field>
        <HostSelect
          id={id('hostId')}
          value={values.hostId}
          onChange={set('hostId')}
          error={fieldErrors.hostId ?? fieldErrors.hostGpuIndexes}
          className="sm:col-span-2"
        />
        <Field
          id={id('status')}
          label="Status"
          hint="In maintenance the listing leaves the marketplace; running rentals go on."
          className="sm:col-span-2"
          error={fieldErrors.status}
        >
          <Select
            id={id('status')}
            value={values.status}
            onChange={(e) => set('status')(e.target.value)}
          >
            <option value="available">Available</option>
            <option value="maintenance">Maintenance</option>
          </Select>
        </Field>
      </form>
      {formError ? (
        <p
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger-text"
        >
          {formError}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" form={FORM_ID} disabled={updateListing.isPending}>
          {updateListing.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </>
  );
}

/** Edit a listing's price, location, bandwidth, count and status. */
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
