import { Page } from '../../components/ui/page';

export default function PaymentsPage() {
  return <Page title="Add Credits" description="Buy prepaid credits for GPU rentals." />;
}
