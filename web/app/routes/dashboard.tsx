import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { DashboardSkeleton, DashboardView } from '../../features/rentals/components/dashboard-view';
import { useVmBilling } from '../../features/vm/api/get-vm-billing';
import { useVmInstances } from '../../features/vm/api/get-vm-instances';
import { MeteredInstances } from '../../features/vm/components/metered-instances';
import { meteredEntries } from '../../features/vm/vm-status';

/** The booked rentals (rentals feature) with the pay-as-you-go instances (VM feature). */
function Dashboard({ userId }: { userId: string }) {
  const vms = useVmInstances(true);
  const billing = useVmBilling(true);
  const list = vms.data ?? [];
  return (
    <DashboardView
      userId={userId}
      metered={{ entries: meteredEntries(list), hours: billing.data?.total_hours ?? 0 }}
      meteredList={<MeteredInstances vms={list} isLoading={vms.isLoading} isError={vms.isError} />}
    />
  );
}

export default function DashboardPage() {
  const { user } = useCurrentUser();
  return (
    <Page
      title="My Dashboard"
      description="Every GPU instance you have, booked or pay-as-you-go: what each costs so far, how to reach and manage it, and your rental history."
    >
      <div className="mt-6">{user ? <Dashboard userId={user.id} /> : <DashboardSkeleton />}</div>
    </Page>
  );
}
