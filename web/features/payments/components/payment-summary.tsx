import { Card } from '../../../components/ui/card';
import { type Quote, usd } from '../selection';

export function PaymentSummary({ quote }: { quote: Quote | null }) {
  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold">Payment Summary</h2>
      {quote ? (
        <dl className="mt-3 grid gap-2 text-sm" data-testid="payment-summary">
          <Row label="Selection" value={quote.label} />
          <Row label="Credits" value={usd(quote.amount)} />
          <Row label="Bonus" value={`+${usd(quote.bonus)}`} />
          <div className="my-1 border-t border-border" />
          <Row label="Total credits" value={usd(quote.total)} strong />
          <Row label="You pay" value={`${usd(quote.amount)} USD`} strong />
        </dl>
      ) : (
        <p className="mt-3 text-sm text-muted-foreground">
          Choose a package or enter an amount from $1 to $1,000.
        </p>
      )}
    </Card>
  );
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={strong ? 'font-semibold' : undefined}>{value}</dd>
    </div>
  );
}
