import { useSearch } from 'wouter';
import { parseCompareIds } from '../../../shared/rules/listing-compare';
import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { CompareView } from '../../features/marketplace/components/compare-view';

/** /compare?ids=3,7: two to four marketplace listings side by side (issue 42, part 1). */
export default function ComparePage() {
  const { user } = useCurrentUser();
  const ids = parseCompareIds(new URLSearchParams(useSearch()).get('ids'));
  return (
    <Page title="Compare GPUs" description="Offers side by side: price, memory, host and uptime.">
      <div className="mt-6">
        <CompareView ids={ids} currency={user?.currency ?? 'USD'} />
      </div>
    </Page>
  );
}
