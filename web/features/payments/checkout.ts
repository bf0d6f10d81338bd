import type { PaypalCaptureResponse } from '../../../shared/contracts/payments';
import { toast } from '../../components/ui/toast-store';
import { serverMessage } from '../../lib/api-client';
import { usd } from './selection';

/** What both wallet checkouts (PayPal's buttons, the built-in sandbox) say. */
export const PAYPAL_TEXT = {
  notConfigured: 'PayPal payment is not configured. Please contact support for assistance.',
  setupFailed: 'PayPal is not configured. Please contact support.',
  sdkFailed: 'Unable to load PayPal SDK. Please refresh the page and try again.',
  orderFailed: 'Failed to create PayPal order.',
  captureFailed: 'Failed to complete PayPal payment.',
  paymentError: 'An error occurred during PayPal payment. Please try again.',
  cancelled: 'PayPal payment was cancelled.',
  chooseFirst: 'Choose a package or enter an amount from $1 to $1,000.',
} as const;

export const paymentFailure = (title: string, description: string) =>
  toast({ title, description, variant: 'destructive' });

export function paymentCancelled(): void {
  toast({ title: 'Payment Cancelled', description: PAYPAL_TEXT.cancelled });
}

/**
 * The last step of order → approval → capture: our server captures the approved order and
 * credits the wallet through the ledger; the toast says how it went. True when the credits
 * were added.
 */
export async function captureApprovedOrder(
  capture: (orderId: string) => Promise<PaypalCaptureResponse>,
  orderId: string,
): Promise<boolean> {
  try {
    const result = await capture(orderId);
    if (result.success) {
      toast({
        title: 'Payment Successful',
        description: `${usd(result.credits)} in credits added to your account.`,
      });
      return true;
    }
    toast({ title: 'Payment Pending', description: result.message });
  } catch (error) {
    paymentFailure('Payment Capture Failed', serverMessage(error, PAYPAL_TEXT.captureFailed));
  }
  return false;
}
