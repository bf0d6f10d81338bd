import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import {
  AuthenticationRequired,
  VmDashboardView,
} from '../../features/vm/components/vm-dashboard-view';

export default function VmDashboardPage() {
  const { user } = useCurrentUser();
  return (
    <Page title="VM Dashboard" description="Pay-as-you-go GPU virtual machines.">
      {/* VM calls are made only when signed in: signed out, the page says to log in. */}
      {user ? <VmDashboardView /> : <AuthenticationRequired />}
    </Page>
  );
}
