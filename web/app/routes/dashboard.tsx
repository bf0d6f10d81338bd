import { Page } from '../../components/ui/page';

export default function DashboardPage() {
  return <Page title="My Dashboard" description="Your active rentals, runtime and spending." />;
}
