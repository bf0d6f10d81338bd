import { useState } from 'react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useRemoveListing } from '../api/remove-listing';
import { unitsRented } from '../utils/listing-edit';

const FALLBACK = 'Failed to remove the listing. Please try again.';

/** Asks before removing; the server refuses while rentals run, and we show its reason. */
export function RemoveListingDialog({
  listing,
  onClose,
}: {
  listing: GpuListingView | null;
  onClose: () => void;
}) {
  const removeListing = useRemoveListing();
  const [error, setError] = useState<string | null>(null);
  const rented = listing ? unitsRented(listing) : 0;

  function close() {
    setError(null);
    removeListing.reset();
    onClose();
  }

  async function confirm() {
    if (!listing) return;
    setError(null);
    try {
      await removeListing.mutateAsync(listing.id);
      toast({
        title: 'Listing Removed',
        description: `${listing.model} in ${listing.location} is no longer in the marketplace.`,
      });
      close();
    } catch (failure) {
      const message = serverMessage(failure, FALLBACK);
      setError(message);
      toast({ title: 'Failed to Remove Listing', description: message, variant: 'destructive' });
    }
  }

  return (
    <Dialog
      open={listing !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title="Remove GPU Listing"
      description={
        listing
          ? `Remove ${listing.model} (${listing.memory}) in ${listing.location} from the marketplace? Past rentals stay in your history.`
          : ''
      }
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={removeListing.isPending}>
            {removeListing.isPending ? 'Removing...' : 'Remove Listing'}
          </Button>
        </>
      }
    >
      {rented > 0 && !error ? (
        <p className="rounded-md bg-muted p-3 text-sm text-warning-text">
          {rented} of its GPUs {rented === 1 ? 'is' : 'are'} rented right now. A listing can only be
          removed once its rentals have ended.
        </p>
      ) : null}
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger-text"
        >
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
