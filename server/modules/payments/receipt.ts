import { microsToDollars } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import type { PaymentOrder } from '../../db/schema';
import type { Mailer } from '../../lib/mailer';
import { usersService } from '../users/service';

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
