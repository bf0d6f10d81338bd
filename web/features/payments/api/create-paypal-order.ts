import type {
  CreatePaypalOrderBody,
  PaypalOrderResponse,
} from '../../../../shared/contracts/payments';
import { apiRequest, errorStatus, newIdempotencyKey } from '../../../lib/api-client';

/**
 * Called from PayPal's createOrder callback; the server prices the order. One checkout is one
 * Idempotency-Key: an answer lost on the way is asked for once more with the same key, which
 * gives the same PayPal order instead of a second one.
 */
export async function createPaypalOrder(body: CreatePaypalOrderBody): Promise<PaypalOrderResponse> {
  const idempotencyKey = newIdempotencyKey();
  const send = () => apiRequest('POST', '/api/payments/paypal/order', body, { idempotencyKey });
  let res: Response;
  try {
    res = await send();
  } catch (error) {
    if (errorStatus(error) !== null) throw error;
    res = await send();
  }
  return (await res.json()) as PaypalOrderResponse;
}
