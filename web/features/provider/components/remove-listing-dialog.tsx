import type { GpuListingView } from '../../../../shared/contracts/listings';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { ItemDialogProps } from '../../../components/ui/dialog';
import { useRemoveListing } from '../api/remove-listing';
import { unitsRented } from '../utils/listing-edit';

/** Asks before removing; the server refuses while rentals run, and we show its reason. */
export function RemoveListingDialog({ item: listing, onClose }: ItemDialogProps<GpuListingView>) {
  const removeListing = useRemoveListing();
  const rented = listing ? unitsRented(listing) : 0;
  return (
    <ConfirmDialog
      item={listing}
      onClose={onClose}
      title="Remove GPU Listing"
      description={
        listing
          ? `Remove ${listing.model} (${listing.memory}) in ${listing.location} from the marketplace? Past rentals stay in your history.`
          : ''
      }
      confirmLabel="Remove Listing"
      pendingLabel="Removing..."
      action={removeListing}
      success={(item) => ({
        title: 'Listing Removed',
        description: `${item.model} in ${item.location} is no longer in the marketplace.`,
      })}
      failureTitle="Failed to Remove Listing"
      fallback="Failed to remove the listing. Please try again."
      keepsRefusal
    >
      {rented > 0 ? (
        <p className="rounded-md bg-muted p-3 text-sm text-warning-text">
          {rented} of its GPUs {rented === 1 ? 'is' : 'are'} rented right now. A listing can only be
          removed once its rentals have ended.
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
