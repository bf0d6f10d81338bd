import { FlaskConical, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { serverMessage } from '../../../lib/api-client';
import { approveSandboxOrder } from '../api/approve-sandbox-order';
import { useCapturePaypalOrder } from '../api/capture-paypal-order';
import { createPaypalOrder } from '../api/create-paypal-order';
import { captureApprovedOrder, PAYPAL_TEXT, paymentCancelled, paymentFailure } from '../checkout';
import { type Quote, usd } from '../selection';

export const SANDBOX_TEXT = {
  badge: 'Sandbox',
  notice:
    'PayPal is not set up on this server, so Add Credits uses a built-in PayPal sandbox. No real money is charged: the credits are for trying RentGPU on this machine.',
  start: 'Pay with PayPal Sandbox',
  title: 'Sandbox checkout — no real money is charged',
  approve: 'Approve',
  cancel: 'Cancel',
} as const;

/**
 * The wallet method when the server runs the built-in PayPal sandbox (no PayPal credentials,
 * not production). The same order → approval → capture path as PayPal's buttons: the server
 * creates the order at the sandbox's Orders v2 stand-in, this dialog is the buyer's approval
 * (PayPal's window for real), and the capture credits the wallet through the ledger.
 */
export function SandboxCheckout({ quote, onPaid }: { quote: Quote | null; onPaid?: () => void }) {
  const capture = useCapturePaypalOrder();
  const [pending, setPending] = useState<{ orderId: string; quote: Quote } | null>(null);
  const [busy, setBusy] = useState<'creating' | 'approving' | null>(null);

  async function start() {
    if (!quote) return;
    setBusy('creating');
    try {
      const order = await createPaypalOrder(quote.body);
      setPending({ orderId: order.id, quote });
    } catch (error) {
      paymentFailure('Order Creation Failed', serverMessage(error, PAYPAL_TEXT.orderFailed));
    } finally {
      setBusy(null);
    }
  }

  async function approve() {
    if (!pending) return;
    setBusy('approving');
    try {
      await approveSandboxOrder(pending.orderId);
    } catch (error) {
      setBusy(null);
      setPending(null);
      paymentFailure('Payment Error', serverMessage(error, PAYPAL_TEXT.paymentError));
      return;
    }
    let paid = false;
    try {
      paid = await captureApprovedOrder(capture.mutateAsync, pending.orderId);
    } finally {
      setBusy(null);
      setPending(null);
    }
    if (paid) onPaid?.();
  }

  function cancel() {
    if (busy === 'approving') return;
    setPending(null);
    paymentCancelled();
  }

  return (
    <div className="grid gap-3" data-testid="paypal-sandbox">
      <div className="rounded-lg border border-dashed border-warning-text/50 bg-warning-text/5 p-3">
        <p className="flex items-center gap-2 text-sm font-semibold">
          <FlaskConical className="h-4 w-4 text-warning-text" aria-hidden />
          PayPal Sandbox
          <Badge tone="warning">{SANDBOX_TEXT.badge}</Badge>
        </p>
        <p className="mt-1 text-sm text-muted-foreground">{SANDBOX_TEXT.notice}</p>
      </div>
      {quote ? null : <p className="text-sm text-muted-foreground">{PAYPAL_TEXT.chooseFirst}</p>}
      <Button className="w-full" disabled={!quote || busy !== null} onClick={() => void start()}>
        {busy === 'creating' ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : null}
        {SANDBOX_TEXT.start}
      </Button>
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) cancel();
        }}
        title={SANDBOX_TEXT.title}
        description="This step stands in for PayPal's approval window. Approving pays with sandbox money only."
        footer={
          <>
            <Button variant="outline" disabled={busy === 'approving'} onClick={cancel}>
              {SANDBOX_TEXT.cancel}
            </Button>
            <Button disabled={busy === 'approving'} onClick={() => void approve()}>
              {busy === 'approving' ? (
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
              ) : null}
              {SANDBOX_TEXT.approve}
            </Button>
          </>
        }
      >
        {pending ? (
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{pending.quote.label}</dt>
            <dd className="text-right">{usd(pending.quote.amount)} USD</dd>
            <dt className="text-muted-foreground">Bonus</dt>
            <dd className="text-right">+{usd(pending.quote.bonus)}</dd>
            <dt className="font-semibold">Credits added</dt>
            <dd className="text-right font-semibold">{usd(pending.quote.total)}</dd>
            <dt className="text-muted-foreground">Real money charged</dt>
            <dd className="text-right">$0.00</dd>
          </dl>
        ) : null}
      </Dialog>
    </div>
  );
}
