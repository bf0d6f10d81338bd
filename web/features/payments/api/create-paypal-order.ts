import type {
  CreatePaypalOrderBody,
  PaypalOrderResponse,
} from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';

/** Called from PayPal's createOrder callback; the server prices the order. */
export async function createPaypalOrder(body: CreatePaypalOrderBody): Promise<PaypalOrderResponse> {
  const res = await apiRequest('POST', '/api/payments/paypal/order', body);
  return (await res.json()) as PaypalOrderResponse;
}
