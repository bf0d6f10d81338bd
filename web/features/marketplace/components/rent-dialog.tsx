import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { bookedCharge } from '../../../../shared/rules/balance-guard';
import { formatMoney } from '../../../../shared/rules/currency';
import { dollarsToMicros } from '../../../../shared/rules/money';
import { isValidRentalHours, quoteRental } from '../../../../shared/rules/pricing';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { keepIdempotencyKey, newIdempotencyKey } from '../../../lib/api-client';
import { rentalCardHref } from '../../../lib/instance-links';
import { BalanceRow, LaunchRefusalNote, useLaunchGuard } from '../../../lib/launch-guard';
import { LaunchNotice } from '../../../lib/launch-notice';
import { useCreateRental } from '../api/create-rental';
import { rentReturnPath } from '../rent-link';

export interface RentDialogProps {
  listing: GpuListingView | null;
  initialHours?: number;
  onClose: () => void;
}

const HOURS_HINT = 'Minimum 1 hour, maximum 30 days (720 hours)';

/** Charges are in USD credits, so the breakdown is in USD whatever the display currency. */
export function RentDialog({ listing, initialHours = 24, onClose }: RentDialogProps) {
  const [hours, setHours] = useState(initialHours);
  const rent = useCreateRental();
  // One Idempotency-Key per opened dialog: a retry or a second click while it is open is the
  // same rent, charged once. A refusal the server keeps (402, 400…) ends that attempt.
  const attemptKey = useRef('');
  const sending = useRef(false);
  const openFor = listing?.id ?? null;
  useEffect(() => {
    if (openFor !== null) attemptKey.current = newIdempotencyKey();
  }, [openFor]);
  useEffect(() => {
    if (listing) setHours(initialHours);
  }, [listing, initialHours]);

  const valid = isValidRentalHours(hours);
  // The server's own quote rule, in integer micro-dollars: what is shown is what is sent.
  const rateMicros = listing ? dollarsToMicros(listing.hourlyRate) : 0n;
  const quote = quoteRental(rateMicros, hours);
  // The total against the balance and spend caps (issue 42): refused here, with the reason,
  // before the server would answer 402.
  const guard = useLaunchGuard(
    listing && valid ? bookedCharge(rateMicros, hours) : null,
    listing !== null,
  );
  const refused = guard.refusal !== null;
  const [location] = useLocation();
  const search = useSearch();

  async function confirm() {
    if (!listing || !valid || refused || sending.current) return;
    sending.current = true;
    try {
      const rented = await rent.mutateAsync({
        body: {
          gpuListingId: listing.id,
          providerId: listing.providerId,
          durationHours: hours,
          hourlyRate: quote.hourlyRate,
          totalCost: quote.totalCost,
        },
        idempotencyKey: attemptKey.current,
      });
      toast({
        title: 'GPU Rented Successfully!',
        description:
          'Your GPU instance is being provisioned. Check your dashboard for SSH details.',
        link: { href: rentalCardHref(rented.id), label: 'View it on your dashboard' },
      });
      onClose();
    } catch (error) {
      if (!keepIdempotencyKey(error)) attemptKey.current = newIdempotencyKey();
      toastFailure('Rental Failed', error, 'Failed to rent GPU. Please try again.');
    } finally {
      sending.current = false;
    }
  }

  return (
    <Dialog
      open={listing !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={listing ? `Rent ${listing.model}` : 'Rent GPU'}
      description={
        listing
          ? `${listing.provider.companyName} · ${listing.location} · ${listing.memory}`
          : undefined
      }
      onCancel={onClose}
      footer={
        <Button
          onClick={confirm}
          disabled={!valid || refused || rent.isPending}
          aria-describedby={refused ? 'rent-refusal' : undefined}
        >
          {rent.isPending ? 'Renting...' : 'Confirm Rental'}
        </Button>
      }
    >
      <Field
        id="rent-hours"
        label="Duration (hours)"
        hint={valid ? HOURS_HINT : undefined}
        error={valid ? null : HOURS_HINT}
      >
        <Input
          id="rent-hours"
          type="number"
          min={1}
          max={720}
          value={hours}
          aria-describedby={valid ? 'rent-hours-hint' : 'rent-hours-error'}
          onChange={(e) => setHours(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
        />
      </Field>
      <dl className="grid gap-1.5 rounded-lg bg-muted p-4 text-sm">
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Hourly rate</dt>
          <dd>{formatMoney(quote.hourlyRate)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Compute ({hours} h)</dt>
          <dd>{formatMoney(quote.totalCost)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Storage add-on (50GB)</dt>
          <dd>{formatMoney(quote.storageFee)}</dd>
        </div>
        <div className="flex justify-between border-t border-border pt-2 text-base font-semibold">
          <dt>Total</dt>
          <dd data-testid="rent-total">{formatMoney(quote.grandTotal)}</dd>
        </div>
        <BalanceRow limits={guard.limits} />
      </dl>
      {listing ? (
        <LaunchRefusalNote
          id="rent-refusal"
          refusal={guard.refusal}
          returnTo={rentReturnPath(location, search, listing.id, hours)}
        />
      ) : null}
      <p className="text-sm text-muted-foreground">
        Provisioning takes 2-3 minutes and billing starts immediately. Your hours count from the
        moment the instance is ready, so the setup is never charged, and a rental that is never
        ready is refunded in full. Stop at any time: unused hours are refunded to your credits,
        metered by the second.
      </p>
      <LaunchNotice />
    </Dialog>
  );
}
