import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaypalCaptureResponse } from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { SPENDING_SUMMARY_KEY } from './get-spending-summary';
import { WALLET_HISTORY_KEY } from './get-wallet-history';

export async function capturePaypalOrder(orderId: string): Promise<PaypalCaptureResponse> {
  const res = await apiRequest(
    'POST',
    `/api/payments/paypal/order/${encodeURIComponent(orderId)}/capture`,
  );
  return (await res.json()) as PaypalCaptureResponse;
}

/** After a capture the balance, the history and the spending figures change. */
export function useCapturePaypalOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: capturePaypalOrder,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
        queryClient.invalidateQueries({ queryKey: WALLET_HISTORY_KEY }),
        queryClient.invalidateQueries({ queryKey: SPENDING_SUMMARY_KEY }),
      ]);
    },
  });
}
