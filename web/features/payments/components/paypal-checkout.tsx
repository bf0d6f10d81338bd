import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useCapturePaypalOrder } from '../api/capture-paypal-order';
import { createPaypalOrder } from '../api/create-paypal-order';
import { usePaypalSetup } from '../api/get-paypal-setup';
import { captureApprovedOrder, PAYPAL_TEXT, paymentCancelled, paymentFailure } from '../checkout';
import { loadPaypalSdk, type PaypalButtonsInstance, paypalSdkSrc } from '../paypal-sdk';
import type { Quote } from '../selection';

/**
 * The wallet method: setup, then PayPal's SDK, then its buttons. The buttons are rendered
 * once and read the current choice when clicked; approval captures on our server, which
 * credits the wallet.
 */
export function PaypalCheckout({ quote, onPaid }: { quote: Quote | null; onPaid?: () => void }) {
  const setup = usePaypalSetup();
  const capture = useCapturePaypalOrder();
  const container = useRef<HTMLDivElement>(null);
  const quoteRef = useRef(quote);
  const captureRef = useRef(capture.mutateAsync);
  const reportedRef = useRef(false);
  const [sdk, setSdk] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [processing, setProcessing] = useState(false);
  quoteRef.current = quote;
  captureRef.current = capture.mutateAsync;
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  useEffect(() => {
    if (setup.error)
      paymentFailure('PayPal Setup Failed', serverMessage(setup.error, PAYPAL_TEXT.setupFailed));
  }, [setup.error]);

  const config = setup.data;
  useEffect(() => {
    const target = container.current;
    if (!config?.success || !config.clientId || !config.sdkUrl || !target) return;
    let cancelled = false;
    let buttons: PaypalButtonsInstance | null = null;
    loadPaypalSdk(paypalSdkSrc(config.sdkUrl, config.clientId))
      .then(async (paypal) => {
        if (cancelled) return;
        buttons = paypal.Buttons({
          style: { layout: 'vertical', shape: 'rect', label: 'paypal' },
          createOrder: async () => {
            reportedRef.current = false;
            const current = quoteRef.current;
            try {
              if (!current) throw new Error(PAYPAL_TEXT.chooseFirst);
              return (await createPaypalOrder(current.body)).id;
            } catch (error) {
              reportedRef.current = true;
              paymentFailure(
                'Order Creation Failed',
                current ? serverMessage(error, PAYPAL_TEXT.orderFailed) : PAYPAL_TEXT.chooseFirst,
              );
              throw error;
            }
          },
          onApprove: async ({ orderID }) => {
            setProcessing(true);
            let paid = false;
            try {
              paid = await captureApprovedOrder(captureRef.current, orderID);
            } finally {
              setProcessing(false);
            }
            if (paid) onPaidRef.current?.();
          },
          onCancel: paymentCancelled,
          onError: () => {
            if (reportedRef.current) return;
            paymentFailure('Payment Error', PAYPAL_TEXT.paymentError);
          },
        });
        await buttons.render(target);
        if (!cancelled) setSdk('ready');
      })
      .catch(() => {
        if (cancelled) return;
        setSdk('failed');
        paymentFailure('PayPal Setup Failed', PAYPAL_TEXT.sdkFailed);
      });
    return () => {
      cancelled = true;
      void buttons?.close?.();
      target.replaceChildren();
    };
  }, [config]);

  if (setup.isLoading) return <Skeleton className="h-12 w-full" />;
  if (setup.error || !config?.success) {
    return <p className="text-sm text-muted-foreground">{PAYPAL_TEXT.notConfigured}</p>;
  }
  return (
    <div className="grid gap-3">
      {sdk === 'failed' ? (
        <p className="text-sm text-danger-text" role="alert">
          {PAYPAL_TEXT.sdkFailed}
        </p>
      ) : null}
      {sdk === 'loading' ? <Skeleton className="h-12 w-full" /> : null}
      {!quote && sdk === 'ready' ? (
        <p className="text-sm text-muted-foreground">{PAYPAL_TEXT.chooseFirst}</p>
      ) : null}
      <div className="relative">
        <div
          ref={container}
          data-testid="paypal-buttons"
          className={cn(
            'min-h-0 transition-opacity',
            !quote && 'hidden',
            processing && 'pointer-events-none opacity-40',
          )}
        />
        {processing ? (
          <div
            role="status"
            className="absolute inset-0 flex items-center justify-center gap-2 text-sm font-medium"
          >
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            Processing payment...
          </div>
        ) : null}
      </div>
    </div>
  );
}
