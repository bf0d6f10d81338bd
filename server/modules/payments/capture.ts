import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';
import type { Db, Tx } from '../../db/client';
import type { PaymentOrder } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { notFound, paymentFailed } from '../../lib/errors';
import {
  type PaypalCapture,
  type PaypalClient,
  PaypalError,
  type PaypalOrder,
} from '../../lib/paypal';
import { ledgerService } from '../ledger/service';
import { type OrderStatus, paymentsRepo } from './repo';

/** Capturing at PayPal and settling what it reports, once (docs/decisions/005). */
export type CaptureSource = 'browser' | 'webhook';

export interface CaptureOutcome {
  order: PaymentOrder;
  /** True only for the call that moved the money. */
  credited: boolean;
}

export interface SettleDeps {
  db: Db;
  clock: Clock;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
}

/** Changes an order's status and records the change (from, to, source, note). */
export async function transition(
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

/**
 * Asks PayPal to capture; when the answer is lost or an error follows a capture that did
 * happen, reads the order back so a completed capture is never missed.
 */
export async function captureAtPaypal(
  client: PaypalClient,
  order: PaymentOrder,
  log: SettleDeps['log'],
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
      log.warn({ err: readError, orderId }, 'PayPal order read-back failed');
    }
    if (!readBack || readBack.captures.length === 0) throw captureFailure(error);
    if (issue !== 'ORDER_ALREADY_CAPTURED') {
      log.warn({ err: error, orderId }, 'PayPal capture errored but the order holds a capture');
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
export async function applyCapture(
  deps: SettleDeps,
  orderId: string,
  capture: PaypalCapture,
  source: CaptureSource,
): Promise<CaptureOutcome> {
  return deps.db.transaction(async (tx) => {
    const order = await paymentsRepo.lockById(tx, orderId);
    if (!order) throw notFound('Payment order');
    if (order.status === 'completed' || order.status === 'review')
      return { order, credited: false };
    const now = deps.clock.now();
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
      deps.log.error({ orderId: order.id, captureId: capture.id, reason }, 'payment needs review');
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
          accountId: await ledgerService.systemAccount(tx, 'payment_clearing', deps.db),
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
            accountId: await ledgerService.systemAccount(tx, 'promotions', deps.db),
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
