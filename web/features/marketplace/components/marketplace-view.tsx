import {
  memo,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useLocation, useSearch } from 'wouter';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { Currency } from '../../../../shared/rules/currency';
import { MAX_COMPARED } from '../../../../shared/rules/listing-compare';
import { isRentable } from '../../../../shared/rules/pricing';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TooltipProvider } from '../../../components/ui/tooltip';
import { useListings } from '../api/get-listings';
import { useCompareSelection } from '../lib/compare-selection';
import {
  filterAndSort,
  type MarketFilters,
  readMarketFilters,
  writeMarketFilters,
} from '../lib/market-filters';
import { rentInAddress, withoutRent } from '../rent-link';
import { CompareBar } from './compare-bar';
import { CostCalculator } from './cost-calculator';
import { FiltersBar } from './filters-bar';
import { LazyRentDialog } from './lazy-rent-dialog';
import { ListingCard, ListingCardSkeleton } from './listing-card';
import { ListingIconSprite } from './listing-icons';
import { StatsStrip } from './stats-strip';

/** Client-side filter of what is loaded: model, location and provider name, case-insensitively. */
function matches(listing: GpuListingView, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [listing.model, listing.location, listing.provider.companyName].some((v) =>
    v.toLowerCase().includes(needle),
  );
}

const SKELETON_KEYS = ['s1', 's2', 's3', 's4', 's5', 's6'];

/** Cards rendered at once: three rows of the widest grid, more than a phone's screen holds. */
const CARDS_AT_ONCE = 9;

/**
 * How many of `total` cards to render: the first CARDS_AT_ONCE, then CARDS_AT_ONCE more each
 * time the browser is idle, so a page of cards (50 to a page) never becomes one long task of
 * rendering and layout before the page can answer. Only grows while the cards are shown: a new
 * filter or sort's cards, after the placeholders, are revealed the same way.
 */
function useRevealedCount(total: number): number {
  const [revealed, setRevealed] = useState(CARDS_AT_ONCE);
  useEffect(() => {
    if (revealed >= total) return;
    const more = () => startTransition(() => setRevealed((n) => n + CARDS_AT_ONCE));
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(more, { timeout: 500 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(more, 16);
    return () => clearTimeout(id);
  }, [revealed, total]);
  return revealed;
}

type ListingsQueryResult = ReturnType<typeof useListings>;

interface ListingGridProps {
  listings: GpuListingView[];
  currency: Currency;
  selectedId: number | null;
  comparedIds: readonly number[];
  onSelect: (listing: GpuListingView) => void;
  onRent: (listing: GpuListingView) => void;
  onCompare: (listing: GpuListingView) => void;
  /** Another page of listings can be asked for; `onLoadMore` asks. */
  hasNextPage: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/**
 * The cards, revealed a batch at a time (useRevealedCount), and the button for the next page.
 * Memoised and holding the reveal's count itself, so that a batch renders its new cards only:
 * with the count in MarketplaceView each batch rendered the whole page again (the stats, the
 * filters, the calculator), which cost as much as the batch's cards (issue 43).
 */
const ListingGrid = memo(function ListingGrid({
  listings,
  currency,
  selectedId,
  comparedIds,
  onSelect,
  onRent,
  onCompare,
  hasNextPage,
  loadingMore,
  onLoadMore,
}: ListingGridProps) {
  const revealed = useRevealedCount(listings.length);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {listings.slice(0, revealed).map((listing) => (
          <ListingCard
            key={listing.id}
            listing={listing}
            currency={currency}
            selected={selectedId === listing.id}
            compared={comparedIds.includes(listing.id)}
            compareFull={comparedIds.length >= MAX_COMPARED}
            onSelect={onSelect}
            onRent={onRent}
            onCompare={onCompare}
          />
        ))}
      </div>
      {/* After the last card, so that it never moves while the cards are revealed. */}
      {hasNextPage && revealed >= listings.length ? (
        <LoadMoreButton loading={loadingMore} onClick={onLoadMore} />
      ) : null}
    </>
  );
});

function LoadMoreButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <Button variant="outline" className="justify-self-center" onClick={onClick} disabled={loading}>
      {loading ? 'Loading...' : 'Load more GPUs'}
    </Button>
  );
}

/**
 * Back from Add Credits (?rent=ID&hours=N): the rent dialog opens again on that listing with
 * those hours, once its page of listings is loaded (the next pages are asked for until it is
 * found or there are none); then the address loses the parameters.
 */
function useRentFromAddress(
  query: ListingsQueryResult,
  pages: { listings: GpuListingView[] }[] | undefined,
  open: (renting: { listing: GpuListingView; hours: number }) => void,
) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const asked = rentInAddress(search);
  const listingId = asked?.listingId ?? null;
  const hours = asked?.hours ?? 24;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (listingId === null || !pages) return;
    const found = pages.flatMap((p) => p.listings).find((l) => l.id === listingId);
    if (!found && hasNextPage) {
      if (!isFetchingNextPage) void fetchNextPage();
      return;
    }
    if (found) open({ listing: found, hours });
    navigate(withoutRent(location, search), { replace: true });
  }, [
    listingId,
    hours,
    pages,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    open,
    navigate,
    location,
    search,
  ]);
}

export function MarketplaceView({ currency }: { currency: Currency }) {
  const [path, navigate] = useLocation();
  const address = useSearch();
  const filters = useMemo(() => readMarketFilters(address), [address]);
  const [search, setSearch] = useState(filters.q);
  // Back and forward bring other filters: the search box follows the address.
  useEffect(() => setSearch(filters.q), [filters.q]);
  const changeFilters = useCallback(
    (changes: Partial<MarketFilters>) => {
      const query = writeMarketFilters({ ...filters, ...changes });
      navigate(query ? `${path}?${query}` : path);
    },
    [filters, navigate, path],
  );
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [renting, setRenting] = useState<{ listing: GpuListingView; hours: number } | null>(null);
  const compare = useCompareSelection();

  // The listings query: model is the search text, or the chosen type unless 'All GPU Types'.
  const query = useListings({
    model: filters.q || (filters.gpuType === 'All GPU Types' ? '' : filters.gpuType),
    gpuType: filters.gpuType,
    sort: filters.sort,
    kind: filters.kind,
    gpuCount: filters.gpus,
    minVramGb: filters.minVram,
    minReliability: filters.minReliability,
    maxGpuHourPrice: filters.maxPricePerGpuHour,
  });
  // The cards render in a transition, which yields to the browser every few milliseconds: a
  // page of them arriving never holds the main thread for long. Until then the placeholders stay.
  const loaded = useDeferredValue(query.data);
  const loading = loaded === undefined && !query.isError;
  const listings = useMemo(
    () =>
      filterAndSort(loaded?.pages.flatMap((page) => page.listings) ?? [], filters).filter((l) =>
        matches(l, search),
      ),
    [loaded, filters, search],
  );
  // The same handlers on every render, so that a memoised card renders only when it changed.
  const selectListing = useCallback((listing: GpuListingView) => setSelectedId(listing.id), []);
  const rentListing = useCallback(
    (listing: GpuListingView) => setRenting({ listing, hours: 24 }),
    [],
  );
  const toggleCompare = useCallback(
    (listing: GpuListingView) => compare.toggle(listing.id),
    [compare.toggle],
  );
  const { fetchNextPage } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const selected =
    listings.find((l) => l.id === selectedId && isRentable(l)) ?? listings.find(isRentable) ?? null;
  useRentFromAddress(query, loaded?.pages, setRenting);

  return (
    <TooltipProvider>
      <div className="grid gap-6">
        <StatsStrip currency={currency} />
        <FiltersBar
          search={search}
          filters={filters}
          onSearchChange={setSearch}
          onFiltersChange={changeFilters}
          onApply={() => changeFilters({ q: search.trim() })}
        />
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_320px]">
          <section aria-label="GPU listings" aria-busy={loading} className="grid gap-4">
            <ListingIconSprite />
            {loading ? (
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {SKELETON_KEYS.map((key) => (
                  <ListingCardSkeleton key={key} />
                ))}
              </div>
            ) : query.isError ? (
              <Card className="p-6 text-danger-text" role="alert">
                {query.error.message}
              </Card>
            ) : listings.length === 0 ? (
              <>
                <Card className="p-10 text-center text-muted-foreground">
                  No GPUs found matching your criteria
                </Card>
                {query.hasNextPage ? (
                  <LoadMoreButton loading={query.isFetchingNextPage} onClick={loadMore} />
                ) : null}
              </>
            ) : (
              <ListingGrid
                listings={listings}
                currency={currency}
                selectedId={selected?.id ?? null}
                comparedIds={compare.ids}
                onSelect={selectListing}
                onRent={rentListing}
                onCompare={toggleCompare}
                hasNextPage={query.hasNextPage}
                loadingMore={query.isFetchingNextPage}
                onLoadMore={loadMore}
              />
            )}
          </section>
          <CostCalculator
            listing={selected}
            currency={currency}
            onRent={(hours) => {
              if (selected) setRenting({ listing: selected, hours });
            }}
          />
        </div>
        <CompareBar ids={compare.ids} onClear={compare.clear} />
        <LazyRentDialog
          listing={renting?.listing ?? null}
          initialHours={renting?.hours ?? 24}
          onClose={() => setRenting(null)}
        />
      </div>
    </TooltipProvider>
  );
}
