import type { PaypalCaptureResponse } from '../../../../shared/contracts/payments';
import { apiJson } from '../../../lib/api-client';
import { CHARGE_LIMITS_KEY, CURRENT_USER_KEY } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { SPENDING_SUMMARY_KEY } from './get-spending-summary';
import { WALLET_HISTORY_KEY } from './get-wallet-history';

export const capturePaypalOrder = (orderId: string) =>
  apiJson<PaypalCaptureResponse>(
    'POST',
    `/api/payments/paypal/order/${encodeURIComponent(orderId)}/capture`,
  );

/** After a capture the balance, the history and the spending figures change. */
export function useCapturePaypalOrder() {
  return useRefreshingMutation(
    capturePaypalOrder,
    [CURRENT_USER_KEY, WALLET_HISTORY_KEY, SPENDING_SUMMARY_KEY, CHARGE_LIMITS_KEY],
    { when: 'settled' },
  );
}
