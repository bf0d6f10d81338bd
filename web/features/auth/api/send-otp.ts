import { useMutation } from '@tanstack/react-query';
import type { MessageResponse, SendOtpBody } from '../../../../shared/contracts/auth';
import { apiRequest } from '../../../lib/api-client';

export async function sendOtp(body: SendOtpBody): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/auth/send-otp', body);
  return (await res.json()) as MessageResponse;
}

export function useSendOtp() {
  return useMutation({ mutationFn: sendOtp });
}
