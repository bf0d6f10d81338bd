import {
  type CreatePaypalOrderBody,
  findPackage,
  PAYMENT_CURRENCY,
  type PaypalSetupResponse,
  parseCustomAmount,
} from '../../../shared/contracts/payments';
import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';
import type { Db, Tx } from '../../db/client';
import type { PaymentOrder } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import {
  conflict,
  notFound,
  paymentFailed,
  paymentsNotConfigured,
  paymentUnderReview,
  rateLimited,
} from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import {
  type PaypalCapture,
  type PaypalClient,
  PaypalError,
  type PaypalOrder,
} from '../../lib/paypal';
import type { RateLimiter } from '../../lib/rate-limit';
import {
  applyCapture,
  type CaptureOutcome,
  type CaptureSource,
  captureAtPaypal,
  transition,
} from './capture';
import { sendReceipt } from './receipt';
import { paymentsRepo } from './repo';

export interface PaymentsDeps {
  db: Db;
  paypal: PaypalClient | null;
  clientId: string | null;
  sdkUrl: string;
  /** The local sandbox's buyer approval, when payments run against it (PAYPAL_MODE local-sandbox). */
  sandbox: { approve(paypalOrderId: string): boolean } | null;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
}

/** Ledger kinds that bring money into a wallet; everything else is spending or its refund. */
export const TOP_UP_KINDS = ['paypal_purchase', 'purchase_bonus', 'grant'];
/** A new order with PayPal's page where the buyer approves it (null: none given). */
export type CreatedOrder = PaymentOrder & { approveUrl: string | null };

export const ORDER_LIMIT = { limit: 30, windowMs: 60 * 60_000 } as const;

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, paypal } = deps;

  function requirePaypal(): PaypalClient {
    if (!paypal) throw paymentsNotConfigured();
    return paypal;
  }

  /** The server's price: a package's amount and bonus, or a custom amount with no bonus. */
  function price(body: CreatePaypalOrderBody) {
    const pkg = body.packageId ? findPackage(body.packageId) : null;
    if (pkg) {
      return {
        packageId: pkg.id,
        amountMicros: dollarsToMicros(pkg.amount),
        bonusMicros: dollarsToMicros(pkg.bonus),
        label: `${pkg.label} package`,
      };
    }
    const custom = parseCustomAmount(body.amount ?? '');
    if (!custom) throw new Error('custom amount passed validation but does not parse');
    return {
      packageId: null,
      amountMicros: dollarsToMicros(custom),
      bonusMicros: 0n,
      label: 'Custom amount',
    };
  }

  async function settle(order: PaymentOrder, capture: PaypalCapture, source: CaptureSource) {
    const outcome = await applyCapture(deps, order.id, capture, source);
    if (outcome.credited) await sendReceipt(deps, outcome.order);
    return outcome;
  }

  return {
    setup(): PaypalSetupResponse {
      if (paypal && deps.sandbox) {
        return {
          success: true,
          clientId: deps.clientId,
          sdkUrl: null,
          currency: PAYMENT_CURRENCY,
          intent: 'capture',
          sandbox: true,
        };
      }
      if (!paypal || !deps.clientId) {
        return {
          success: false,
          clientId: null,
          sdkUrl: null,
          currency: PAYMENT_CURRENCY,
          intent: 'capture',
          message: 'PayPal payment is not configured. Please contact support for assistance.',
        };
      }
      return {
        success: true,
        clientId: deps.clientId,
        sdkUrl: deps.sdkUrl,
        currency: PAYMENT_CURRENCY,
        intent: 'capture',
      };
    },

    /** Records the order first, so PayPal's order always maps back to a user and a price. */
    async createOrder(
      userId: string,
      body: CreatePaypalOrderBody,
      options: { record?: (tx: Tx, order: CreatedOrder) => Promise<void> } = {},
    ): Promise<CreatedOrder> {
      const client = requirePaypal();
      const decision = await deps.limiter.hit(
        `paypal-order:${userId}`,
        ORDER_LIMIT.limit,
        ORDER_LIMIT.windowMs,
      );
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
      const quote = price(body);
      const order = await db.transaction(async (tx) => {
        const row = await paymentsRepo.insertOrder(tx, {
          userId,
          packageId: quote.packageId,
          amountMicros: quote.amountMicros,
          bonusMicros: quote.bonusMicros,
          currency: PAYMENT_CURRENCY,
          status: 'creating',
        });
        await paymentsRepo.insertEvent(tx, {
          orderId: row.id,
          fromStatus: null,
          toStatus: 'creating',
          source: 'browser',
        });
        return row;
      });
      let created: PaypalOrder;
      try {
        created = await client.createOrder({
          requestId: `order-${order.id}`,
          amount: microsToDollars(order.amountMicros),
          currency: PAYMENT_CURRENCY,
          customId: order.id,
          description: `RentGPU credits: ${quote.label}`,
        });
        if (!created.id) throw new PaypalError('PayPal answered without an order id', 200);
      } catch (error) {
        deps.log.error({ err: error, orderId: order.id }, 'PayPal order creation failed');
        await db.transaction((tx) =>
          transition(tx, order, 'failed', 'browser', {}, describeError(error)),
        );
        throw paymentFailed('PayPal could not create the order. Please try again.');
      }
      const done: CreatedOrder = {
        ...order,
        status: 'created',
        paypalOrderId: created.id,
        approveUrl: created.approveUrl ?? null,
      };
      await db.transaction(async (tx) => {
        await transition(tx, order, 'created', 'browser', { paypalOrderId: created.id });
        await options.record?.(tx, done);
      });
      return done;
    },

    /** Owner only; a second call after success answers the same without calling PayPal. */
    async capture(userId: string, paypalOrderId: string): Promise<CaptureOutcome> {
      const client = requirePaypal();
      const order = await paymentsRepo.findByPaypalOrderId(db, paypalOrderId);
      if (!order || order.userId !== userId) throw notFound('Payment order');
      if (order.status === 'completed') return { order, credited: false };
      if (order.status === 'review') throw paymentUnderReview();
      if (order.status === 'failed') {
        throw paymentFailed('This payment did not go through. Please start a new payment.');
      }
      const capture = await captureAtPaypal(client, order, deps.log);
      const outcome = await settle(order, capture, 'browser');
      if (outcome.order.status === 'review') throw paymentUnderReview();
      if (outcome.order.status === 'failed') {
        throw paymentFailed('PayPal declined the payment. Please try another payment method.');
      }
      return outcome;
    },

    /**
     * The buyer's approval in the local sandbox (what PayPal's window does for real): only the
     * order's owner, only an order not yet captured or failed. Capture stays a separate step.
     */
    async approveSandboxOrder(userId: string, paypalOrderId: string) {
      if (!deps.sandbox) throw notFound('Payment order');
      const order = await paymentsRepo.findByPaypalOrderId(db, paypalOrderId);
      if (!order || order.userId !== userId) throw notFound('Payment order');
      if (order.status !== 'created' || !deps.sandbox.approve(paypalOrderId)) {
        throw conflict('This sandbox payment can no longer be approved. Please start a new one.', {
          status: order.status,
        });
      }
      return { id: paypalOrderId, status: 'approved' as const };
    },

    /** The webhook's part: an approved order the browser never captured, or a capture's news. */
    async captureApproved(paypalOrderId: string): Promise<string> {
      const client = requirePaypal();
      const order = await paymentsRepo.findByPaypalOrderId(db, paypalOrderId);
      if (!order) return 'unknown-order';
      if (order.status !== 'created' && order.status !== 'pending')
        return `already-${order.status}`;
      const capture = await captureAtPaypal(client, order, deps.log);
      return (await settle(order, capture, 'webhook')).order.status;
    },

    async applyReportedCapture(capture: PaypalCapture): Promise<string> {
      const order =
        (capture.orderId ? await paymentsRepo.findByPaypalOrderId(db, capture.orderId) : null) ??
        (await paymentsRepo.findByCaptureId(db, capture.id));
      if (!order) return 'unknown-order';
      return (await settle(order, capture, 'webhook')).order.status;
    },

    /** A refund or reversal at PayPal: credits are not taken back automatically; support reviews. */
    async flagForReview(captureId: string, reason: string): Promise<string> {
      const order = await paymentsRepo.findByCaptureId(db, captureId);
      if (!order) return 'unknown-order';
      await db.transaction(async (tx) => {
        const locked = await paymentsRepo.lockById(tx, order.id);
        if (!locked || locked.status === 'review') return;
        await transition(tx, locked, 'review', 'webhook', { reviewReason: reason }, reason);
      });
      return 'review';
    },

    findOrderByPaypalId: (paypalOrderId: string) =>
      paymentsRepo.findByPaypalOrderId(db, paypalOrderId),
    listEvents: (orderId: string) => paymentsRepo.listEvents(db, orderId),
    listOrders: (userId: string) => paymentsRepo.listByUser(db, userId),
    findWebhookEvent: (id: string) => paymentsRepo.findWebhookEvent(db, id),
    recordWebhookEvent: (event: Parameters<typeof paymentsRepo.recordWebhookEvent>[1]) =>
      paymentsRepo.recordWebhookEvent(db, event),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
export type { CaptureOutcome };

function describeError(error: unknown): string {
  if (error instanceof PaypalError) return `${error.status ?? 'no answer'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
