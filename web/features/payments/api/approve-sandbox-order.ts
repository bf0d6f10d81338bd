import type { SandboxApprovalResponse } from '../../../../shared/contracts/payments';
import { apiRequest } from '../../../lib/api-client';

/** The buyer's approval in the built-in PayPal sandbox (what PayPal's window does for real). */
export async function approveSandboxOrder(orderId: string): Promise<SandboxApprovalResponse> {
  const res = await apiRequest(
    'POST',
    `/api/payments/sandbox/order/${encodeURIComponent(orderId)}/approve`,
  );
  return (await res.json()) as SandboxApprovalResponse;
}
