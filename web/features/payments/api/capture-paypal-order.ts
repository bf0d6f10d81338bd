import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaypalCaptureResponse } from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';
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
        // The current user's query key is its URL (web/features/auth/api/get-current-user.ts).
        queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] }),
        queryClient.invalidateQueries({ queryKey: WALLET_HISTORY_KEY }),
        queryClient.invalidateQueries({ queryKey: SPENDING_SUMMARY_KEY }),
      ]);
    },
  });
}
