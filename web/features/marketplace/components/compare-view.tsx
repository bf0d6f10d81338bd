import { Award } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { Currency } from '../../../../shared/rules/currency';
import { MIN_COMPARED } from '../../../../shared/rules/listing-compare';
import { isRentable } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useComparedListings } from '../api/get-compared-listings';
import { type CompareRow, compareRows } from '../lib/compare-rows';
import { compareHref, useCompareSelection } from '../lib/compare-selection';
import { rentInAddress, withoutRent } from '../rent-link';
import { LazyRentDialog } from './lazy-rent-dialog';

/** The mark of a row's best value: in words, not colour alone. */
function BestMark({ word }: { word: string }) {
  return (
    <Badge tone="success" className="ml-2">
      <Award className="h-3 w-3" aria-hidden />
      {word}
    </Badge>
  );
}

const title = (l: GpuListingView) => `${l.model} · ${l.provider.companyName}`;

interface ColumnActionsProps {
  listing: GpuListingView;
  onRent: (listing: GpuListingView) => void;
  onRemove: (id: number) => void;
}

function ColumnActions({ listing, onRent, onRemove }: ColumnActionsProps) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        onClick={() => onRent(listing)}
        disabled={!isRentable(listing)}
        aria-label={`Rent ${title(listing)}`}
      >
        Rent
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => onRemove(listing.id)}
        aria-label={`Remove ${title(listing)} from the comparison`}
      >
        Remove
      </Button>
    </div>
  );
}

/** Side by side from the md breakpoint: one column per listing, one row per figure. */
function CompareTable({ listings, rows, ...actions }: TableProps) {
  return (
    <div className="hidden md:block">
      <table className="w-full table-fixed border-collapse text-sm" data-testid="compare-table">
        <caption className="sr-only">The offers compared, one column each</caption>
        <thead>
          <tr className="border-b border-border align-top">
            <td className="w-40 p-3" />
            {listings.map((listing) => (
              <th key={listing.id} scope="col" className="p-3 text-left">
                <span className="block text-base font-semibold">{listing.model}</span>
                <span className="block font-normal text-muted-foreground">
                  {listing.provider.companyName}
                </span>
                <div className="mt-2">
                  <ColumnActions listing={listing} {...actions} />
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-b border-border">
              <th scope="row" className="p-3 text-left font-medium text-muted-foreground">
                {row.label}
              </th>
              {row.cells.map((cell, i) => (
                <td key={listings[i]?.id} className="p-3 break-words">
                  {cell}
                  {row.best.includes(i) ? <BestMark word={row.bestWord} /> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface TableProps {
  listings: GpuListingView[];
  rows: CompareRow[];
  onRent: (listing: GpuListingView) => void;
  onRemove: (id: number) => void;
}

/** On a phone: one card per listing, its figures one under another. */
function CompareCards({ listings, rows, ...actions }: TableProps) {
  return (
    <div className="grid gap-4 md:hidden">
      {listings.map((listing, i) => (
        <Card
          key={listing.id}
          className="grid gap-3 p-4"
          role="group"
          aria-label={title(listing)}
          data-testid="compare-card"
        >
          <h2 className="text-lg font-semibold">
            {listing.model}
            <span className="block text-sm font-normal text-muted-foreground">
              {listing.provider.companyName}
            </span>
          </h2>
          <dl className="grid gap-1.5 text-sm">
            {rows.map((row) => (
              <div key={row.label} className="flex flex-wrap justify-between gap-x-3">
                <dt className="text-muted-foreground">{row.label}</dt>
                <dd className="min-w-0 text-right break-words">
                  {row.cells[i]}
                  {row.best.includes(i) ? <BestMark word={row.bestWord} /> : null}
                </dd>
              </div>
            ))}
          </dl>
          <ColumnActions listing={listing} {...actions} />
        </Card>
      ))}
    </div>
  );
}

const BACK = (
  <Link href="/marketplace" className={buttonClasses('outline', 'sm')}>
    Back to the marketplace
  </Link>
);

/**
 * The compare view (issue 42, part 1): two to four listings side by side, the best value of
 * each row marked in words, and a Rent button per listing opening the marketplace's rent dialog.
 */
export function CompareView({ ids, currency }: { ids: number[]; currency: Currency }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const selection = useCompareSelection();
  const query = useComparedListings(ids);
  const [renting, setRenting] = useState<{ listing: GpuListingView; hours: number } | null>(null);
  const rent = (listing: GpuListingView) => setRenting({ listing, hours: 24 });

  // Back from Add Credits (?rent=ID&hours=N, web/features/marketplace/rent-link.ts): the rent
  // dialog opens again on that offer with those hours, then the address loses the parameters.
  const asked = rentInAddress(search);
  const askedId = asked?.listingId ?? null;
  const askedHours = asked?.hours ?? 24;
  const loaded = query.data?.listings;
  useEffect(() => {
    if (askedId === null || !loaded) return;
    const found = loaded.find((listing) => listing.id === askedId);
    if (found) setRenting({ listing: found, hours: askedHours });
    navigate(withoutRent(location, search), { replace: true });
  }, [askedId, askedHours, loaded, navigate, location, search]);

  function remove(id: number) {
    if (selection.ids.includes(id)) selection.toggle(id);
    navigate(compareHref(ids.filter((other) => other !== id)), { replace: true });
  }

  if (ids.length === 0) {
    return (
      <Card className="grid justify-items-start gap-3 p-6">
        <p>Pick two to four offers in the marketplace to compare them.</p>
        {BACK}
      </Card>
    );
  }
  if (query.isPending) {
    return (
      <div aria-busy="true" className="grid gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-96 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Card className="p-6 text-danger-text" role="alert">
        {query.error.message}
      </Card>
    );
  }
  const { listings, missing } = query.data;
  const rows = compareRows(listings, currency);
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {listings.length === 1 ? '1 offer' : `${listings.length} offers`} side by side. The best
          value of each row is marked.
        </p>
        {BACK}
      </div>
      {missing.length > 0 ? (
        <Card className="p-4 text-sm" role="status" data-testid="compare-missing">
          {missing.length === 1
            ? `Listing #${missing[0]} is not in the marketplace: it was removed, or never existed.`
            : `Listings ${missing.map((id) => `#${id}`).join(', ')} are not in the marketplace: they were removed, or never existed.`}
        </Card>
      ) : null}
      {listings.length < MIN_COMPARED ? (
        <Card className="p-4 text-sm">Pick at least two offers to compare them side by side.</Card>
      ) : null}
      {listings.length > 0 ? (
        <>
          <CompareTable listings={listings} rows={rows} onRent={rent} onRemove={remove} />
          <CompareCards listings={listings} rows={rows} onRent={rent} onRemove={remove} />
        </>
      ) : null}
      <LazyRentDialog
        listing={renting?.listing ?? null}
        initialHours={renting?.hours ?? 24}
        onClose={() => setRenting(null)}
      />
    </div>
  );
}
