import type { SandboxApprovalResponse } from '../../../../shared/contracts/payments';
import { apiJson } from '../../../lib/api-client';

/** The buyer's approval in the built-in PayPal sandbox (what PayPal's window does for real). */
export function approveSandboxOrder(orderId: string): Promise<SandboxApprovalResponse> {
  return apiJson<SandboxApprovalResponse>(
    'POST',
    `/api/payments/sandbox/order/${encodeURIComponent(orderId)}/approve`,
  );
}
