import { memo } from 'react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { type Currency, formatMoney } from '../../../../shared/rules/currency';
import { availabilityLabel, isLowAvailability, isRentable } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tooltip } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { KIND_BADGES, KIND_LABELS, offeredKinds } from '../../../lib/instance-kinds';
import {
  diskWords,
  driverWords,
  HOST_STATUS_LABELS,
  listingFacts,
  reliabilityLabel,
  shareWords,
} from '../lib/listing-facts';
import { ListingIcon } from './listing-icons';

interface ListingCardProps {
  listing: GpuListingView;
  currency: Currency;
  selected: boolean;
  /** Picked for the compare view; `compareFull`: four are picked, no more may be. */
  compared: boolean;
  compareFull: boolean;
  onSelect: (listing: GpuListingView) => void;
  onRent: (listing: GpuListingView) => void;
  onCompare: (listing: GpuListingView) => void;
}

/**
 * One listing. Memoised (the handlers take the listing, so the list passes the same ones to
 * every card): the marketplace re-renders as its queries and the revealed cards change, and
 * only the cards whose listing, currency or selection changed render again.
 */
export const ListingCard = memo(function ListingCard({
  listing,
  currency,
  selected,
  compared,
  compareFull,
  onSelect,
  onRent,
  onCompare,
}: ListingCardProps) {
  const rentable = isRentable(listing);
  const facts = listingFacts(listing);
  const driver = driverWords(facts);
  const label = availabilityLabel(listing);
  const kinds = offeredKinds(listing.kinds);
  return (
    // No content-visibility: auto here. It spared the browser the style and layout of cards off
    // screen, but a skipped card has no colours to check, and axe reported every off-screen
    // card's button as failing contrast (every-route.spec.ts at 1280 px).
    <Card
      className={cn('flex flex-col gap-4 p-5 transition-shadow', selected && 'ring-2 ring-primary')}
      data-testid="listing-card"
      aria-label={`${listing.model} from ${listing.provider.companyName}`}
      role="group"
    >
      <div className="grid gap-1">
        <div className="flex items-start justify-between gap-3">
          <h3 className="text-lg font-semibold">{listing.model}</h3>
          <Badge
            tone={!rentable ? 'danger' : isLowAvailability(listing) ? 'warning' : 'success'}
            data-testid="availability"
          >
            {label}
          </Badge>
        </div>
        {/* The whole card width, wrapping rather than cutting: company, verified mark, rating. */}
        <p
          className="flex flex-wrap items-center gap-x-1 text-sm text-muted-foreground"
          data-testid="provider-line"
        >
          <span>{listing.provider.companyName}</span>
          {listing.provider.isVerified ? (
            <ListingIcon
              name="badge-check"
              className="h-4 w-4 shrink-0 text-primary"
              label="Verified provider"
            />
          ) : null}
          <span className="ml-1 inline-flex items-center gap-0.5 whitespace-nowrap">
            <ListingIcon name="star" className="h-3.5 w-3.5" />
            <span className="sr-only">Rating </span>
            {listing.provider.reputation}
          </span>
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div className="flex items-center gap-1.5">
          <ListingIcon name="hard-drive" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Memory</dt>
          <dd>{listing.memory}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <ListingIcon name="gauge" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Bandwidth</dt>
          <dd>{listing.bandwidth}</dd>
        </div>
        {/* What one GPU's share of its host gives an instance: shown before renting. */}
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="cpu" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">CPU and RAM per GPU</dt>
          <dd data-testid="gpu-share">{shareWords(listing)}</dd>
        </div>
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="hard-drive" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Disk per GPU</dt>
          <dd data-testid="gpu-disk">{diskWords(listing)}</dd>
        </div>
        {/* Always a line (every card as tall as its placeholder): what the host reports, or not. */}
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="cpu" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Driver and CUDA</dt>
          <dd data-testid="driver">{driver ?? 'Driver and CUDA not reported'}</dd>
        </div>
        {/* The kinds of instance its host runs now (docs/decisions/025); none without a host. */}
        {kinds.length > 0 ? (
          <div className="col-span-2 flex items-center gap-1.5">
            <ListingIcon name="boxes" className="h-4 w-4 text-muted-foreground" />
            <dt className="sr-only">Runs</dt>
            <dd className="flex flex-wrap gap-1.5" data-testid="listing-kinds">
              {kinds.map((kind) =>
                KIND_BADGES[kind] === KIND_LABELS[kind] ? (
                  <Badge key={kind}>{KIND_LABELS[kind]}</Badge>
                ) : (
                  <Badge key={kind} title={KIND_LABELS[kind]}>
                    <span aria-hidden>{KIND_BADGES[kind]}</span>
                    <span className="sr-only">{KIND_LABELS[kind]}</span>
                  </Badge>
                ),
              )}
            </dd>
          </div>
        ) : null}
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="activity" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Host uptime</dt>
          <dd data-testid="host-uptime">{reliabilityLabel(facts.reliability)}</dd>
        </div>
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="map-pin" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Location</dt>
          <dd>{listing.location}</dd>
        </div>
        <div className="col-span-2 flex items-center gap-1.5">
          <ListingIcon name="server" className="h-4 w-4 text-muted-foreground" />
          <dt className="sr-only">Host status</dt>
          <dd data-testid="host-status">{HOST_STATUS_LABELS[listing.hostStatus]}</dd>
        </div>
      </dl>
      <div className="flex items-end justify-between gap-2">
        <div>
          <p className="text-2xl font-bold" data-testid="hourly-rate">
            {formatMoney(listing.hourlyRate, currency)}
            <span className="text-sm font-normal text-muted-foreground">/hr</span>
          </p>
          <p className="text-xs text-muted-foreground">
            {formatMoney(listing.dailyRate, currency)}/day
          </p>
          {facts.gpus > 1 ? (
            <p className="text-xs text-muted-foreground" data-testid="gpu-hour-rate">
              {formatMoney(facts.pricePerGpuHour, currency)}/GPU-hr · {facts.gpus} GPUs
            </p>
          ) : (
            <p className="text-xs text-muted-foreground" data-testid="gpu-hour-rate">
              {formatMoney(facts.pricePerGpuHour, currency)}/GPU-hr
            </p>
          )}
        </div>
        {listing.isDemoHost ? (
          <Tooltip content="A simulated host for trying RentGPU: renting, billing and refunds are real, but its SSH address is not a real machine.">
            <button type="button" className="rounded-full">
              <Badge tone="info">
                <ListingIcon name="server" className="h-3 w-3" /> Demo host
              </Badge>
            </button>
          </Tooltip>
        ) : null}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="h-4 w-4 accent-primary"
          checked={compared}
          disabled={!compared && compareFull}
          onChange={() => onCompare(listing)}
        />
        {compared ? 'Picked to compare' : compareFull ? 'Compare (4 picked)' : 'Compare'}
      </label>
      <div className="mt-auto grid grid-cols-2 gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onSelect(listing)}
          aria-pressed={selected}
          disabled={!rentable}
        >
          {selected ? 'Selected' : 'Calculate'}
        </Button>
        <Button size="sm" onClick={() => onRent(listing)} disabled={!rentable}>
          Rent Now
        </Button>
      </div>
    </Card>
  );
});

/**
 * A card-shaped placeholder with the loaded card's rows at their line heights, so the grid
 * keeps its height when the listings arrive (no layout shift).
 */
export function ListingCardSkeleton() {
  return (
    <Card className="flex flex-col gap-4 p-5" data-testid="listing-skeleton">
      <div className="grid gap-1">
        <div className="flex items-start justify-between gap-3">
          <Skeleton className="h-7 w-28" />
          <Skeleton className="h-5 w-20 rounded-full" />
        </div>
        <Skeleton className="h-5 w-44" />
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Skeleton className="h-5 w-16" />
        <Skeleton className="h-5 w-20" />
        <Skeleton className="col-span-2 h-5 w-48" />
        <Skeleton className="col-span-2 h-5 w-36" />
        <Skeleton className="col-span-2 h-5 w-36" />
        <Skeleton className="col-span-2 h-5 w-32" />
        <Skeleton className="col-span-2 h-5 w-40" />
        <Skeleton className="col-span-2 h-5 w-44" />
        <Skeleton className="col-span-2 h-5 w-28" />
      </div>
      <div>
        <Skeleton className="h-8 w-24" />
        <Skeleton className="h-4 w-20" />
        <Skeleton className="mt-0.5 h-4 w-24" />
      </div>
      <Skeleton className="h-5 w-24" />
      <div className="mt-auto grid grid-cols-2 gap-2">
        <Skeleton className="h-8" />
        <Skeleton className="h-8" />
      </div>
    </Card>
  );
}
