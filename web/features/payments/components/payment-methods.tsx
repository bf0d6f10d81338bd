import { CreditCard, Wallet } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { Tabs } from '../../../components/ui/tabs';
import type { Quote } from '../selection';
import { PaypalCheckout } from './paypal-checkout';

export const CARD_NOT_CONFIGURED =
  'Card payment is not configured. Please contact support for assistance, or pay with PayPal.';

/** Card or wallet; the card method always says it is not configured (spec part 2 section 2). */
export function PaymentMethods({ quote }: { quote: Quote | null }) {
  return (
    <Card className="p-5">
      <h2 className="mb-3 text-lg font-semibold">Payment Method</h2>
      <Tabs
        label="Payment method"
        defaultValue="paypal"
        items={[
          {
            value: 'card',
            label: (
              <span className="flex items-center gap-1.5">
                <CreditCard className="h-4 w-4" aria-hidden /> Credit Card
              </span>
            ),
            content: <p className="text-sm text-muted-foreground">{CARD_NOT_CONFIGURED}</p>,
          },
          {
            value: 'paypal',
            label: (
              <span className="flex items-center gap-1.5">
                <Wallet className="h-4 w-4" aria-hidden /> PayPal
              </span>
            ),
            content: <PaypalCheckout quote={quote} />,
          },
        ]}
      />
    </Card>
  );
}
