import type { BillingSummary } from '../../../../shared/contracts/kvm';
import { formatMoney } from '../../../../shared/rules/currency';
import { Card } from '../../../components/ui/card';

/**
 * Dollars with 2 decimals, hours with 1; Active Instances counts every listed instance. Stopped
 * instances are named: their storage is still charged.
 */
export function BillingCard({
  summary,
  instanceCount,
  stoppedCount = 0,
}: {
  summary: BillingSummary | undefined;
  instanceCount: number;
  stoppedCount?: number;
}) {
  const figures = [
    { label: 'Total Amount', value: summary ? formatMoney(summary.total_amount) : '…' },
    { label: 'Unpaid Amount', value: summary ? formatMoney(summary.unpaid_amount) : '…' },
    { label: 'Total Hours', value: summary ? summary.total_hours.toFixed(1) : '…' },
    { label: 'Active Instances', value: String(instanceCount) },
  ];
  return (
    <Card className="p-5" aria-labelledby="vm-billing-title" role="region">
      <h2 id="vm-billing-title" className="text-lg font-semibold">
        Billing Summary
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {figures.map((f) => (
          <div key={f.label}>
            <dt className="text-sm text-muted-foreground">{f.label}</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid={`billing-${f.label}`}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-muted-foreground">
        Charged each minute, in advance, from your credits: compute while an instance runs, storage
        ($0.001 per GB per hour) until it is terminated. Unpaid is what minutes already begun will
        cost when they are charged.
      </p>
      {stoppedCount > 0 ? (
        <p className="mt-1 text-xs text-muted-foreground" data-testid="billing-stopped-note">
          {stoppedCount === 1 ? '1 stopped instance is' : `${stoppedCount} stopped instances are`}{' '}
          still charged for storage until terminated.
        </p>
      ) : null}
    </Card>
  );
}
