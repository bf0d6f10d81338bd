import { PackageOpen } from 'lucide-react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { LISTING_TEXT } from '../../../../shared/listing-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyList } from './list-parts';
import { ListingItem } from './listing-item';
import { QueryError } from './query-error';

interface ListingListProps {
  listings: GpuListingView[] | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  onAdd: () => void;
  onSetupGuide: (listing: GpuListingView) => void;
  onEdit: (listing: GpuListingView) => void;
  onRemove: (listing: GpuListingView) => void;
}

/** My GPU Listings: skeletons while loading, the error when it fails, a nudge when empty. */
export function ListingList({
  listings,
  isLoading,
  error,
  onRetry,
  onAdd,
  ...actions
}: ListingListProps) {
  if (isLoading) {
    return (
      <ul className="grid gap-3" aria-busy="true" aria-label="Loading listings">
        {[1, 2, 3].map((n) => (
          <li key={n} className="grid gap-2 rounded-lg border border-border p-4">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-64 max-w-full" />
            <Skeleton className="h-4 w-32" />
          </li>
        ))}
      </ul>
    );
  }
  if (error) return <QueryError what="your listings" error={error} onRetry={onRetry} />;
  if (!listings || listings.length === 0) {
    return (
      <EmptyList
        icon={PackageOpen}
        title="You have no GPU listings yet"
        action="Add your first GPU"
        onAction={onAdd}
      >
        {LISTING_TEXT.emptyList}
      </EmptyList>
    );
  }
  return (
    <ul className="grid gap-3" aria-label="My GPU listings">
      {listings.map((listing) => (
        <ListingItem key={listing.id} listing={listing} {...actions} />
      ))}
    </ul>
  );
}
