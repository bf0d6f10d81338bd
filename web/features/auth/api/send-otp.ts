import type { MessageResponse, SendOtpBody } from '../../../../shared/contracts/auth';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export async function sendOtp(body: SendOtpBody): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/auth/send-otp', body);
  return (await res.json()) as MessageResponse;
}

export function useSendOtp() {
  return useAction(sendOtp);
}
