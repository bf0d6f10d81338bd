import type {
  PaypalCaptureResponse,
  PaypalOrderResponse,
} from '../../../shared/contracts/payments';
import { microsToDollars } from '../../../shared/rules/money';
import type { PaymentOrder } from '../../db/schema';

export function presentOrder(order: PaymentOrder): PaypalOrderResponse {
  return {
    id: order.paypalOrderId ?? '',
    status: order.status,
    amount: microsToDollars(order.amountMicros),
    bonus: microsToDollars(order.bonusMicros),
    credits: microsToDollars(order.amountMicros + order.bonusMicros),
    currency: 'USD',
  };
}

export function presentCapture(order: PaymentOrder, balanceMicros: bigint): PaypalCaptureResponse {
  const completed = order.status === 'completed';
  const credits = microsToDollars(order.amountMicros + order.bonusMicros);
  return {
    success: completed,
    status: completed ? 'completed' : 'pending',
    orderId: order.paypalOrderId ?? '',
    amount: microsToDollars(order.amountMicros),
    bonus: microsToDollars(order.bonusMicros),
    credits,
    balance: microsToDollars(balanceMicros),
    message: completed
      ? `$${credits} in credits added to your account.`
      : 'PayPal is still processing this payment. Credits are added as soon as it completes.',
  };
}
