import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { useUserProfile } from '../api/get-user-profile';
import { useUserRentals } from '../api/get-user-rentals';
import { AccountTab } from './account-tab';
import { ActivityTab } from './activity-tab';
import { type DateFormat, ProfileOverview } from './profile-overview';
import { ProfileSideCards } from './profile-side-cards';
import { ProviderTab } from './provider-tab';

interface ProfileViewProps {
  userId: string;
  dates: DateFormat;
  totalSpent: string | undefined;
  deleteAction: ReactNode;
}

/** Profile: Overview, Account, Activity, and Provider for providers. */
export function ProfileView({ userId, dates, totalSpent, deleteAction }: ProfileViewProps) {
  const profile = useUserProfile(userId);
  const rentals = useUserRentals(userId);
  if (!profile.data) {
    return profile.error ? (
      <p className="mt-8 text-danger-text">Could not load your profile. Please try again.</p>
    ) : (
      <div className="mt-8 grid gap-4" aria-busy="true" data-testid="profile-loading">
        <Skeleton className="h-10 w-80" />
        <Skeleton className="h-48" />
      </div>
    );
  }
  const p = profile.data;
  return (
    <Tabs
      className="mt-8"
      label="Profile sections"
      items={[
        {
          value: 'overview',
          label: 'Overview',
          content: (
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-3">
              <div className="min-w-0 lg:col-span-2">
                <ProfileOverview profile={p} dates={dates} />
              </div>
              <ProfileSideCards
                credits={p.credits}
                rentals={rentals.data}
                totalSpent={totalSpent}
              />
            </div>
          ),
        },
        {
          value: 'account',
          label: 'Account',
          content: <AccountTab profile={p} deleteAction={deleteAction} />,
        },
        {
          value: 'activity',
          label: 'Activity',
          content: <ActivityTab rentals={rentals.data} dates={dates} />,
        },
        ...(p.isProvider
          ? [{ value: 'provider', label: 'Provider', content: <ProviderTab userId={userId} /> }]
          : []),
      ]}
    />
  );
}
