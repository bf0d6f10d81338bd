import type { RentalView } from '../../../../shared/contracts/rentals';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';

interface SideCardsProps {
  credits: string;
  rentals: RentalView[] | undefined;
  /** Net spending from the ledger, as the billing tab shows it; undefined while loading. */
  totalSpent: string | undefined;
}

/** Account Balance and Quick Stats beside the profile card. */
export function ProfileSideCards({ credits, rentals, totalSpent }: SideCardsProps) {
  const active = rentals?.filter((r) => r.status === 'active').length;
  const completed = rentals?.filter((r) => r.status === 'completed').length;
  return (
    <div className="grid content-start gap-6">
      <Card className="p-5">
        <h3 className="text-sm text-muted-foreground">Account Balance</h3>
        <p className="mt-1 text-3xl font-bold" data-testid="profile-balance">
          ${credits}
        </p>
        <p className="text-xs text-muted-foreground">Available credits</p>
      </Card>
      <Card className="p-5">
        <h3 className="font-semibold">Quick Stats</h3>
        <dl className="mt-3 grid gap-2 text-sm">
          <Stat label="Active rentals" value={active} />
          <Stat label="Completed" value={completed} />
          <Stat
            label="Total spent"
            value={totalSpent === undefined ? undefined : `$${Number(totalSpent).toFixed(2)}`}
          />
        </dl>
      </Card>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string | number | undefined }) {
  return (
    <div className="flex items-center justify-between">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">
        {value === undefined ? <Skeleton className="h-4 w-10" /> : value}
      </dd>
    </div>
  );
}
