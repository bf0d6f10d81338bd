import { invalidWebhook, paymentsNotConfigured } from '../../lib/errors';
import { isRecord, type PaypalClient, toCapture } from '../../lib/paypal';
import type { PaymentsService } from './service';

interface WebhookDeps {
  payments: PaymentsService;
  paypal: PaypalClient | null;
  webhookId: string | null;
  log: { warn(obj: unknown, msg: string): void };
}

/**
 * A PayPal webhook delivery. The signature is checked by PayPal's verify-webhook-signature
 * call against PAYPAL_WEBHOOK_ID; each event id is handled once. An approved order the
 * browser never captured is captured here; a capture reported here is credited here (once,
 * like any other capture); a refund or reversal puts the order up for review.
 */
export async function handlePaypalWebhook(
  deps: WebhookDeps,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): Promise<{ received: true; outcome: string }> {
  const { payments, paypal, webhookId } = deps;
  if (!paypal || !webhookId) throw paymentsNotConfigured();
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.event_type !== 'string') {
    throw invalidWebhook('The webhook body is not a PayPal event.');
  }
  const verified = await paypal
    .verifyWebhookSignature({ webhookId, headers, event: body })
    .catch((error: unknown) => {
      deps.log.warn({ err: error }, 'PayPal webhook verification call failed');
      return false;
    });
  if (!verified) throw invalidWebhook();

  if (await payments.findWebhookEvent(body.id)) return { received: true, outcome: 'duplicate' };
  const resource = isRecord(body.resource) ? body.resource : {};
  const resourceId = typeof resource.id === 'string' ? resource.id : null;
  let outcome = 'ignored';
  switch (body.event_type) {
    case 'CHECKOUT.ORDER.APPROVED':
      if (resourceId) outcome = await payments.captureApproved(resourceId);
      break;
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.PENDING':
    case 'PAYMENT.CAPTURE.DENIED': {
      const capture = toCapture(resource);
      if (capture) outcome = await payments.applyReportedCapture(capture);
      break;
    }
    case 'PAYMENT.CAPTURE.REFUNDED':
    case 'PAYMENT.CAPTURE.REVERSED': {
      const captureId = capturedIdOf(resource);
      if (captureId) {
        outcome = await payments.flagForReview(
          captureId,
          `PayPal reported ${body.event_type}; credits were not taken back automatically`,
        );
      }
      break;
    }
  }
  // Recorded after handling: a delivery that failed half-way is retried by PayPal.
  await payments.recordWebhookEvent({
    id: body.id,
    eventType: body.event_type,
    resourceId,
    outcome,
  });
  return { received: true, outcome };
}

/** A refund resource points "up" to its capture; a reversal's resource is the capture itself. */
function capturedIdOf(resource: Record<string, unknown>): string | null {
  const links = Array.isArray(resource.links) ? resource.links : [];
  for (const link of links) {
    if (isRecord(link) && link.rel === 'up' && typeof link.href === 'string') {
      const match = /\/captures\/([^/?#]+)/.exec(link.href);
      if (match?.[1]) return match[1];
    }
  }
  return typeof resource.id === 'string' ? resource.id : null;
}
