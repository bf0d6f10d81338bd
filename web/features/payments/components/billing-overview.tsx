import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useSpendingSummary } from '../api/get-spending-summary';
import { usd } from '../selection';
import { WalletHistory } from './wallet-history';

interface BillingOverviewProps {
  timeZone: string;
  language: string;
}

/**
 * Settings → Billing: the real balance and spending from the ledger. What PayPal checkout
 * cannot do (stored cards, automatic top-ups) is said plainly instead of shown as controls
 * that do nothing.
 */
export function BillingOverview({ timeZone, language }: BillingOverviewProps) {
  const summary = useSpendingSummary();
  const figures = summary.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <Figure label="Balance" value={figures?.balance} testId="billing-balance" />
        <Figure label="This month" value={figures?.thisMonth} testId="billing-this-month" />
        <Figure label="Total spent" value={figures?.totalSpent} testId="billing-total-spent" />
      </div>
      {summary.error ? (
        <p className="text-sm text-danger-text">Could not load your spending.</p>
      ) : null}
      <p className="text-xs text-muted-foreground">
        Spending is net of refunds and includes credits held for running rentals; this month began
        on the 1st in your time zone ({timeZone}).
      </p>
      <Card className="grid gap-3 p-5">
        <h3 className="font-semibold">Payment method</h3>
        <p className="text-sm text-muted-foreground">
          Credits are bought with PayPal on the Add Credits page; no card is stored with us. Card
          payment is not configured.
        </p>
        <div>
          <Link href="/payments" className={buttonClasses('primary', 'sm')}>
            Add Credits
          </Link>
        </div>
      </Card>
      <Card className="grid gap-3 p-5">
        <h3 className="font-semibold">Automatic top-up</h3>
        <label className="flex items-center gap-3 text-sm text-muted-foreground">
          <input
            type="checkbox"
            disabled
            className="h-4 w-4"
            aria-describedby="auto-recharge-why"
          />
          Auto-recharge when the balance runs low
        </label>
        <p id="auto-recharge-why" className="text-xs text-muted-foreground">
          Not available yet: PayPal checkout asks you to approve every payment, so we cannot charge
          you automatically.
        </p>
      </Card>
      <WalletHistory timeZone={timeZone} language={language} />
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value?: string; testId: string }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      {value === undefined ? (
        <Skeleton className="mt-2 h-7 w-24" />
      ) : (
        <p className="mt-1 text-2xl font-bold tabular-nums" data-testid={testId}>
          {usd(value)}
        </p>
      )}
    </Card>
  );
}
