import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaypalSetupResponse } from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';

const URL = '/api/payments/paypal/setup';

export async function getPaypalSetup(): Promise<PaypalSetupResponse> {
  const res = await apiRequest('GET', URL);
  return (await res.json()) as PaypalSetupResponse;
}

export const paypalSetupQueryOptions = () =>
  queryOptions({ queryKey: [URL], queryFn: getPaypalSetup });

export function usePaypalSetup() {
  return useQuery(paypalSetupQueryOptions());
}
