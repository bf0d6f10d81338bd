import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaypalSetupResponse } from '../../../../shared/contracts/payments';
import { apiJson } from '../../../lib/api-client';

const URL = '/api/payments/paypal/setup';

export function getPaypalSetup(): Promise<PaypalSetupResponse> {
  return apiJson<PaypalSetupResponse>('GET', URL);
}

export const paypalSetupQueryOptions = () =>
  queryOptions({ queryKey: [URL], queryFn: getPaypalSetup });

export function usePaypalSetup() {
  return useQuery(paypalSetupQueryOptions());
}
