import { Link } from 'wouter';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatMoney } from '../../../../shared/rules/currency';
import { formatRuntime } from '../../../../shared/rules/pricing';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { useFormatDate } from '../../../lib/date-format';
import { runtimeMs } from '../rental-math';

const REASONS: Record<string, string> = {
  user: 'Stopped by you',
  expiry: 'Booked hours ended',
  provisioning_timeout: 'Not ready in time: fully refunded',
  api: 'Stopped through the API',
};

export function RentalHistory({ rentals, now }: { rentals: RentalView[]; now: number }) {
  const formatDate = useFormatDate();
  if (rentals.length === 0)
    return (
      <Card className="p-6 text-center text-sm text-muted-foreground">No past rentals yet.</Card>
    );
  return (
    <Card className="overflow-x-auto">
      <table className="w-full min-w-[640px] text-sm">
        <thead className="text-left text-muted-foreground">
          <tr className="border-b border-border">
            <th className="p-3 font-medium">GPU</th>
            <th className="p-3 font-medium">Started</th>
            <th className="p-3 font-medium">Runtime</th>
            <th className="p-3 font-medium">Status</th>
            <th className="p-3 text-right font-medium">Charged</th>
            <th className="p-3 text-right font-medium">Refunded</th>
          </tr>
        </thead>
        <tbody>
          {rentals.map((r) => (
            <tr
              key={r.id}
              className="border-b border-border last:border-0"
              data-testid="history-row"
            >
              <td className="p-3">
                <div className="font-medium">{r.gpuListing.model}</div>
                <div className="text-xs text-muted-foreground">{r.provider.companyName}</div>
                <Link href={`/invoices/${r.id}`} className="text-xs text-link underline">
                  Invoice<span className="sr-only"> of rental #{r.id}</span>
                </Link>
              </td>
              <td className="p-3">{formatDate(r.startTime, { withTime: true })}</td>
              <td className="p-3">{formatRuntime(runtimeMs(r, now))}</td>
              <td className="p-3">
                <Badge tone={r.status === 'completed' ? 'neutral' : 'warning'}>
                  {r.status === 'completed' ? 'Completed' : 'Cancelled'}
                </Badge>
                <div className="mt-1 text-xs text-muted-foreground">
                  {REASONS[r.settledBy ?? ''] ?? ''}
                </div>
              </td>
              <td className="p-3 text-right">
                {formatMoney(
                  r.status === 'cancelled' ? 0 : Number(r.usedCost ?? 0) + Number(r.storageFee),
                )}
              </td>
              <td className="p-3 text-right">{formatMoney(r.refund ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
