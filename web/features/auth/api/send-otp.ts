import type { MessageResponse, SendOtpBody } from '../../../../shared/contracts/auth';
import { apiJson } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export function sendOtp(body: SendOtpBody): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/auth/send-otp', body);
}

export function useSendOtp() {
  return useAction(sendOtp);
}
