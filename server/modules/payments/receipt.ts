import type { Receipt } from '../../../shared/contracts/invoices';
import { microsToDollars } from '../../../shared/rules/money';
import type { Conn, Db } from '../../db/client';
import type { PaymentOrder } from '../../db/schema';
import type { Mailer } from '../../lib/mailer';
import { usersService } from '../users/service';
import { paymentsRepo } from './repo';

export interface ReceiptDeps {
  db: Db;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void };
}

/** A receipt by e-mail when the user's notification settings ask for payment alerts. */
export async function sendReceipt(deps: ReceiptDeps, order: PaymentOrder) {
  try {
    const profile = await usersService.getProfile(deps.db, order.userId);
    const settings = await usersService.getSettings(deps.db, order.userId);
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

/** A completed credit purchase as a receipt (the web app's receipt page and PDF). */
export function presentReceipt(
  order: PaymentOrder,
  customer: { email: string; name: string | null },
): Receipt {
  return {
    number: `RCPT-${order.id.slice(0, 8).toUpperCase()}`,
    orderId: order.id,
    paidAt: (order.completedAt ?? order.updatedAt).toISOString(),
    customer,
    method: order.provider === 'paypal' ? 'PayPal' : order.provider,
    paypalCaptureId: order.paypalCaptureId,
    amount: microsToDollars(order.amountMicros),
    bonus: microsToDollars(order.bonusMicros),
    credits: microsToDollars(order.amountMicros + order.bonusMicros),
    currency: 'USD',
  };
}

/** Receipts exist for completed purchases only, the caller's own. */
export const receiptsReads = {
  async completed(conn: Conn, userId: string): Promise<PaymentOrder[]> {
    return (await paymentsRepo.listByUser(conn, userId)).filter((o) => o.status === 'completed');
  },
  /** The user's completed order, else null (another user's or an unfinished one alike). */
  async one(conn: Conn, userId: string, orderId: string): Promise<PaymentOrder | null> {
    const order = await paymentsRepo.findById(conn, orderId);
    return order && order.userId === userId && order.status === 'completed' ? order : null;
  },
};
