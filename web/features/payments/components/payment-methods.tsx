import { CreditCard, Wallet } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { Tabs } from '../../../components/ui/tabs';
import { usePaypalSetup } from '../api/get-paypal-setup';
import type { Quote } from '../selection';
import { PaypalCheckout } from './paypal-checkout';
import { SandboxCheckout } from './sandbox-checkout';

export const CARD_NOT_CONFIGURED =
  'Card payment is not configured. Please contact support for assistance, or pay with PayPal.';
/** Without real PayPal (not configured, or only the built-in sandbox) there is no one to point to. */
export const CARD_NOT_CONFIGURED_NO_PAYPAL =
  'Card payment is not configured. Please contact support for assistance.';

/**
 * Card or wallet; the card method always says it is not configured.
 * The wallet method is PayPal's buttons, or the built-in sandbox when the server runs it.
 */
export function PaymentMethods({
  quote,
  onPaid,
}: {
  quote: Quote | null;
  /** After a purchase that added credits (Add Credits from a launch screen goes back to it). */
  onPaid?: () => void;
}) {
  const setup = usePaypalSetup();
  const sandbox = setup.data?.sandbox === true;
  const realPaypal = setup.data?.success === true && !sandbox;
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
            content: (
              <p className="text-sm text-muted-foreground">
                {realPaypal ? CARD_NOT_CONFIGURED : CARD_NOT_CONFIGURED_NO_PAYPAL}
              </p>
            ),
          },
          {
            value: 'paypal',
            label: (
              <span className="flex items-center gap-1.5">
                <Wallet className="h-4 w-4" aria-hidden /> PayPal
              </span>
            ),
            content: sandbox ? (
              <SandboxCheckout quote={quote} onPaid={onPaid} />
            ) : (
              <PaypalCheckout quote={quote} onPaid={onPaid} />
            ),
          },
        ]}
      />
    </Card>
  );
}
