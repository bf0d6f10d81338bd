import { Page } from '../../components/ui/page';

export default function ProviderPage() {
  return <Page title="Provider Dashboard" description="Your GPU listings, rentals and revenue." />;
}
