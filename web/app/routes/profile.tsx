import { AccessDenied } from '../../components/ui/access-denied';
import { Page } from '../../components/ui/page';
import { DeleteAccountButton } from '../../features/account/components/delete-account-button';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { useSpendingSummary } from '../../features/payments/api/get-spending-summary';
import { ProfileView } from '../../features/profile/components/profile-view';

export default function ProfilePage() {
  const { user } = useCurrentUser();
  return (
    <Page title="Profile" description="Your account details and activity.">
      {user ? (
        <SignedInProfile userId={user.id} timeZone={user.timezone} language={user.language} />
      ) : (
        <AccessDenied message="Please log in to view your profile." />
      )}
    </Page>
  );
}

function SignedInProfile(props: { userId: string; timeZone: string; language: string }) {
  const summary = useSpendingSummary();
  return (
    <ProfileView
      userId={props.userId}
      dates={{ timeZone: props.timeZone, language: props.language }}
      totalSpent={summary.data?.totalSpent}
      deleteAction={<DeleteAccountButton userId={props.userId} />}
    />
  );
}
