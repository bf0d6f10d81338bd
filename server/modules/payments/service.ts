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
import { ledgerService } from '../ledger/service';
import { usersService } from '../users/service';
import { type OrderStatus, paymentsRepo } from './repo';

export interface PaymentsDeps {
  db: Db;
  paypal: PaypalClient | null;
  clientId: string | null;
  sdkUrl: string;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
}

/** Ledger kinds that bring money into a wallet; everything else is spending or its refund. */
export const TOP_UP_KINDS = ['paypal_purchase', 'purchase_bonus', 'grant'];
export const ORDER_LIMIT = { limit: 30, windowMs: 60 * 60_000 } as const;

export type CaptureSource = 'browser' | 'webhook';

export interface CaptureOutcome {
  order: PaymentOrder;
  /** True only for the call that moved the money. */
  credited: boolean;
}

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, paypal, clock } = deps;

  function requirePaypal(): PaypalClient {
    if (!paypal) throw paymentsNotConfigured();
    return paypal;
  }

  async function transition(
    tx: Tx,
    order: PaymentOrder,
    to: OrderStatus,
    source: string,
    patch: Parameters<typeof paymentsRepo.update>[2] = {},
    note?: string,
  ) {
    await paymentsRepo.update(tx, order.id, { ...patch, status: to });
    await paymentsRepo.insertEvent(tx, {
      orderId: order.id,
      fromStatus: order.status,
      toStatus: to,
      source,
      note: note ?? null,
    });
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

  /**
   * Asks PayPal to capture; when the answer is lost or an error follows a capture that did
   * happen, reads the order back so a completed capture is never missed.
   */
  async function captureAtPaypal(
    client: PaypalClient,
    order: PaymentOrder,
  ): Promise<PaypalCapture> {
    const orderId = order.paypalOrderId ?? '';
    let result: PaypalOrder;
    try {
      result = await client.captureOrder(orderId, `capture-${order.id}`);
    } catch (error) {
      const issue = error instanceof PaypalError ? error.issue : null;
      let readBack: PaypalOrder | null = null;
      try {
        readBack = await client.getOrder(orderId);
      } catch (readError) {
        deps.log.warn({ err: readError, orderId }, 'PayPal order read-back failed');
      }
      if (!readBack || readBack.captures.length === 0) throw captureFailure(error);
      if (issue !== 'ORDER_ALREADY_CAPTURED') {
        deps.log.warn(
          { err: error, orderId },
          'PayPal capture errored but the order holds a capture',
        );
      }
      result = readBack;
    }
    const capture =
      result.captures.find((c) => c.status === 'COMPLETED') ?? result.captures[0] ?? null;
    if (!capture) throw paymentFailed('PayPal did not report a capture for this order.');
    return capture;
  }

  /**
   * Settles what PayPal reported, once: the order row is locked, and the purchase and its
   * bonus are posted with idempotency keys of the capture id. A capture of another amount
   * or currency credits nothing and puts the order up for review.
   */
  async function applyCapture(
    orderId: string,
    capture: PaypalCapture,
    source: CaptureSource,
  ): Promise<CaptureOutcome> {
    return db.transaction(async (tx) => {
      const order = await paymentsRepo.lockById(tx, orderId);
      if (!order) throw notFound('Payment order');
      if (order.status === 'completed' || order.status === 'review')
        return { order, credited: false };
      const now = clock.now();
      const status = capture.status.toUpperCase();
      if (status === 'PENDING') {
        if (order.status !== 'pending') {
          await transition(tx, order, 'pending', source, { paypalCaptureId: capture.id });
        }
        return {
          order: { ...order, status: 'pending', paypalCaptureId: capture.id },
          credited: false,
        };
      }
      if (status === 'DECLINED' || status === 'FAILED') {
        await transition(
          tx,
          order,
          'failed',
          source,
          { paypalCaptureId: capture.id },
          `capture ${status}`,
        );
        return { order: { ...order, status: 'failed' }, credited: false };
      }
      const mismatch = describeMismatch(order, capture);
      if (status !== 'COMPLETED' || mismatch) {
        const reason = mismatch ?? `PayPal reported the capture as ${status}`;
        await transition(
          tx,
          order,
          'review',
          source,
          { paypalCaptureId: capture.id, reviewReason: reason },
          reason,
        );
        deps.log.error(
          { orderId: order.id, captureId: capture.id, reason },
          'payment needs review',
        );
        return { order: { ...order, status: 'review', reviewReason: reason }, credited: false };
      }
      const wallet = await ledgerService.walletAccount(tx, order.userId);
      const reference = `payment-order:${order.id}`;
      const posted = await ledgerService.post(tx, {
        kind: 'paypal_purchase',
        memo: `PayPal purchase of $${microsToDollars(order.amountMicros)} in credits`,
        idempotencyKey: `paypal-capture:${capture.id}`,
        reference,
        lines: [
          {
            accountId: await ledgerService.systemAccount(tx, 'payment_clearing', db),
            amountMicros: -order.amountMicros,
          },
          { accountId: wallet, amountMicros: order.amountMicros },
        ],
      });
      if (posted !== null && order.bonusMicros > 0n) {
        await ledgerService.post(tx, {
          kind: 'purchase_bonus',
          memo: `Bonus credits with the ${order.packageId ?? 'credit'} package`,
          idempotencyKey: `paypal-capture-bonus:${capture.id}`,
          reference,
          lines: [
            {
              accountId: await ledgerService.systemAccount(tx, 'promotions', db),
              amountMicros: -order.bonusMicros,
            },
            { accountId: wallet, amountMicros: order.bonusMicros },
          ],
        });
      }
      await transition(tx, order, 'completed', source, {
        paypalCaptureId: capture.id,
        completedAt: now,
      });
      return {
        order: { ...order, status: 'completed', paypalCaptureId: capture.id, completedAt: now },
        credited: posted !== null,
      };
    });
  }

  /** A receipt by e-mail when the user's notification settings ask for payment alerts. */
  async function sendReceipt(order: PaymentOrder) {
    try {
      const profile = await usersService.getProfile(db, order.userId);
      const settings = await usersService.getSettings(db, order.userId);
      if (!settings.notifications.email || !settings.notifications.paymentAlerts) return;
      const total = microsToDollars(order.amountMicros + order.bonusMicros);
      await deps.mailer.send({
        to: profile.email,
        subject: `RentGPU receipt: $${total} in credits added`,
        text: `We received your PayPal payment of $${microsToDollars(order.amountMicros)} USD.\n${
          order.bonusMicros > 0n ? `Bonus credits: $${microsToDollars(order.bonusMicros)}\n` : ''
        }Credits added: $${total}\nYour balance is now $${microsToDollars(profile.balanceMicros)}.\n\nPayPal capture: ${order.paypalCaptureId ?? ''}`,
      });
    } catch (error) {
      deps.log.error({ err: error, orderId: order.id }, 'payment receipt e-mail failed');
    }
  }

  async function settle(order: PaymentOrder, capture: PaypalCapture, source: CaptureSource) {
    const outcome = await applyCapture(order.id, capture, source);
    if (outcome.credited) await sendReceipt(outcome.order);
    return outcome;
  }

  return {
    setup(): PaypalSetupResponse {
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
    async createOrder(userId: string, body: CreatePaypalOrderBody): Promise<PaymentOrder> {
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
      await db.transaction((tx) =>
        transition(tx, order, 'created', 'browser', { paypalOrderId: created.id }),
      );
      return { ...order, status: 'created', paypalOrderId: created.id };
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
      const capture = await captureAtPaypal(client, order);
      const outcome = await settle(order, capture, 'browser');
      if (outcome.order.status === 'review') throw paymentUnderReview();
      if (outcome.order.status === 'failed') {
        throw paymentFailed('PayPal declined the payment. Please try another payment method.');
      }
      return outcome;
    },

    /** The webhook's part: an approved order the browser never captured, or a capture's news. */
    async captureApproved(paypalOrderId: string): Promise<string> {
      const client = requirePaypal();
      const order = await paymentsRepo.findByPaypalOrderId(db, paypalOrderId);
      if (!order) return 'unknown-order';
      if (order.status !== 'created' && order.status !== 'pending')
        return `already-${order.status}`;
      const capture = await captureAtPaypal(client, order);
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

function describeMismatch(order: PaymentOrder, capture: PaypalCapture): string | null {
  const expected = `${microsToDollars(order.amountMicros)} ${order.currency}`;
  if (!capture.amount) return `PayPal reported no amount; expected ${expected}`;
  let micros: bigint | null = null;
  try {
    micros = dollarsToMicros(capture.amount.value);
  } catch {
    micros = null;
  }
  if (micros !== order.amountMicros || capture.amount.currency_code !== order.currency) {
    return `PayPal captured ${capture.amount.value} ${capture.amount.currency_code}; expected ${expected}`;
  }
  return null;
}

const DECLINE_MESSAGES: Record<string, string> = {
  INSTRUMENT_DECLINED: 'Your payment method was declined. Please try another one in PayPal.',
  ORDER_NOT_APPROVED: 'The payment was not approved in PayPal yet.',
  PAYER_ACTION_REQUIRED: 'PayPal needs you to finish the payment first.',
};

function captureFailure(error: unknown) {
  const issue = error instanceof PaypalError ? error.issue : null;
  return paymentFailed(
    (issue && DECLINE_MESSAGES[issue]) ??
      'PayPal could not complete the payment. Please try again.',
    issue ? { issue } : undefined,
  );
}

function describeError(error: unknown): string {
  if (error instanceof PaypalError) return `${error.status ?? 'no answer'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
