import { Page } from '../../components/ui/page';

export default function VmDashboardPage() {
  return <Page title="VM Dashboard" description="Pay-as-you-go GPU virtual machines." />;
}
