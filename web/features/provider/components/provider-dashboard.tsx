import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { ProviderView } from '../../../../shared/contracts/providers';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { useMyApplication } from '../api/get-my-application';
import { useMyProvider } from '../api/get-my-provider';
import { useProviderListings } from '../api/get-provider-listings';
import { useProviderRentals } from '../api/get-provider-rentals';
import { summarizeProvider } from '../utils/provider-summary';
import { ApplicationStatus } from './application-status';
import { BecomeProviderCta } from './become-provider-cta';
import { HostsSection } from './hosts-section';
import { AddListingDialog, EditListingDialog } from './listing-dialogs';
import { ListingList } from './listing-list';
import { ProviderRentals } from './provider-rentals';
import { ProviderStats } from './provider-stats';
import { QueryError } from './query-error';
import { RemoveListingDialog } from './remove-listing-dialog';
import { Section } from './section';
import { SetupGuideDialog } from './setup-guide-dialog';

function ProviderWorkspace({ provider }: { provider: ProviderView }) {
  const listings = useProviderListings(provider.id);
  const rentals = useProviderRentals(provider.id);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<GpuListingView | null>(null);
  const [removing, setRemoving] = useState<GpuListingView | null>(null);
  const [guideFor, setGuideFor] = useState<GpuListingView | null>(null);
  const summary = useMemo(
    () => (listings.data && rentals.data ? summarizeProvider(listings.data, rentals.data) : null),
    [listings.data, rentals.data],
  );
  const statsFailed = Boolean(listings.error || rentals.error);

  return (
    <div className="mt-6 grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
          <span>
            Signed in as provider{' '}
            <span className="font-semibold text-foreground">{provider.companyName}</span>
          </span>
          {provider.isVerified ? <Badge tone="success">Verified</Badge> : null}
        </p>
        <Button variant="provider" onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Add New GPU Listing
        </Button>
      </div>

      {statsFailed ? (
        <p className="text-sm text-muted-foreground">
          The stats need your listings and rentals; see the error below.
        </p>
      ) : (
        <ProviderStats summary={summary} />
      )}

      <Section id="my-listings-title" title="My GPU Listings">
        <ListingList
          listings={listings.data}
          isLoading={listings.isLoading}
          error={listings.error}
          onRetry={() => void listings.refetch()}
          onAdd={() => setAdding(true)}
          onSetupGuide={setGuideFor}
          onEdit={setEditing}
          onRemove={setRemoving}
        />
      </Section>

      <HostsSection />

      <Section id="provider-rentals-title" title="Active Rentals">
        <ProviderRentals
          rentals={rentals.data}
          isLoading={rentals.isLoading}
          error={rentals.error}
          onRetry={() => void rentals.refetch()}
        />
      </Section>

      <AddListingDialog providerId={provider.id} open={adding} onOpenChange={setAdding} />
      <EditListingDialog listing={editing} onClose={() => setEditing(null)} />
      <RemoveListingDialog item={removing} onClose={() => setRemoving(null)} />
      <SetupGuideDialog listing={guideFor} onClose={() => setGuideFor(null)} />
    </div>
  );
}

export function ProviderDashboardSkeleton() {
  return (
    <div className="mt-6 grid gap-6" aria-busy="true">
      <span role="status" className="sr-only">
        Loading provider dashboard
      </span>
      <Skeleton className="h-10 w-full max-w-md" />
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {[1, 2, 3, 4].map((n) => (
          <Skeleton key={n} className="h-28" />
        ))}
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** Without a provider profile: the state of the user's application, or a way to apply. */
function NotAProviderYet({ dates }: { dates: { timeZone: string; language: string } }) {
  const application = useMyApplication();
  if (application.isLoading) return <ProviderDashboardSkeleton />;
  const current = application.data;
  if (current && current.status !== 'approved') {
    return <ApplicationStatus application={current} dates={dates} />;
  }
  return <BecomeProviderCta />;
}

/** The provider dashboard of the signed-in user, or a way to become a provider. */
export function ProviderDashboard({
  userId,
  dates = { timeZone: 'UTC', language: 'en' },
}: {
  userId: string;
  dates?: { timeZone: string; language: string };
}) {
  const provider = useMyProvider(userId);
  if (provider.isLoading) return <ProviderDashboardSkeleton />;
  if (provider.error) {
    return (
      <div className="mt-6">
        <QueryError
          what="your provider profile"
          error={provider.error}
          onRetry={() => void provider.refetch()}
        />
      </div>
    );
  }
  if (!provider.data) return <NotAProviderYet dates={dates} />;
  return <ProviderWorkspace provider={provider.data} />;
}
