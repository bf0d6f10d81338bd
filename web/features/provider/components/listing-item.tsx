import { FlaskConical, MapPin, Pencil, Terminal, Trash2, Unplug, Wrench } from 'lucide-react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { LISTING_TEXT } from '../../../../shared/listing-text';
import { formatMoney } from '../../../../shared/rules/currency';
import { availabilityLabel, hostCanRun, isLowAvailability } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { ItemButton } from './list-parts';

interface ListingItemProps {
  listing: GpuListingView;
  onSetupGuide: (listing: GpuListingView) => void;
  onEdit: (listing: GpuListingView) => void;
  onRemove: (listing: GpuListingView) => void;
}

/** Why a listing is kept out of the marketplace by its host, in words; null when it is not. */
function hostNotice(listing: GpuListingView): string | null {
  if (listing.hostStatus === 'none') return LISTING_TEXT.notConnectedNotice;
  if (listing.hostStatus === 'not_ready') return LISTING_TEXT.notReadyNotice;
  return null;
}

export function ListingItem({ listing, onSetupGuide, onEdit, onRemove }: ListingItemProps) {
  const maintenance = listing.status === 'maintenance';
  const rented = listing.totalCount - listing.availableCount;
  const notice = hostNotice(listing);
  const noticeId = `listing-${listing.id}-host-notice`;
  return (
    <li
      className="rounded-lg border border-border p-3 sm:p-4"
      aria-labelledby={`listing-${listing.id}-title`}
      {...(notice ? { 'aria-describedby': noticeId } : {})}
      data-testid="provider-listing"
    >
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`listing-${listing.id}-title`} className="text-base font-semibold">
              {listing.model}
            </h3>
            <span className="text-sm text-muted-foreground">{listing.memory}</span>
            {listing.hostStatus === 'none' ? (
              <Badge tone="warning" data-testid="listing-not-connected">
                <Unplug className="h-3 w-3" aria-hidden />
                {LISTING_TEXT.notConnected}
              </Badge>
            ) : null}
            {maintenance ? (
              <Badge tone="warning">
                <Wrench className="h-3 w-3" aria-hidden />
                Maintenance
              </Badge>
            ) : null}
            {listing.isDemoHost ? (
              <Badge tone="info" title="A simulated host that serves the demo; no real machine">
                <FlaskConical className="h-3 w-3" aria-hidden />
                Demo host
              </Badge>
            ) : null}
          </div>
          <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
            <MapPin className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
            <span className="break-words">
              {listing.location} · {listing.bandwidth}
            </span>
          </p>
          <p className="text-sm">
            <span className="font-semibold">{formatMoney(listing.hourlyRate)}/hr</span>
            <span className="text-muted-foreground"> · {formatMoney(listing.dailyRate)}/day</span>
          </p>
          <p className="text-sm">
            {maintenance ? (
              <span className="text-muted-foreground">Not offered while in maintenance</span>
            ) : (
              <span
                className={cn(
                  'font-medium',
                  !hostCanRun(listing)
                    ? 'text-muted-foreground'
                    : isLowAvailability(listing)
                      ? 'text-warning-text'
                      : 'text-success-text',
                )}
                data-testid="availability"
              >
                {availabilityLabel(listing)}
              </span>
            )}
            <span className="text-muted-foreground">
              {' '}
              · {rented} of {listing.totalCount} rented
            </span>
          </p>
          {notice ? (
            <p
              id={noticeId}
              className="text-sm text-warning-text"
              data-testid="listing-host-notice"
            >
              {notice}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2 md:justify-end">
          <ItemButton icon={Terminal} onClick={() => onSetupGuide(listing)}>
            Setup Guide
          </ItemButton>
          <ItemButton icon={Pencil} onClick={() => onEdit(listing)}>
            Edit
          </ItemButton>
          <ItemButton icon={Trash2} className="text-danger-text" onClick={() => onRemove(listing)}>
            Remove
          </ItemButton>
        </div>
      </div>
    </li>
  );
}
