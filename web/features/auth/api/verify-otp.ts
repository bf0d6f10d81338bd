import { useMutation } from '@tanstack/react-query';
import type { VerifyOtpBody } from '../../../../shared/contracts/auth';
import type { SignInResponse } from '../../../../shared/contracts/user';
import { apiRequest } from '../../../lib/api-client';

export async function verifyOtp(body: VerifyOtpBody): Promise<SignInResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-otp', body);
  return (await res.json()) as SignInResponse;
}

export function useVerifyOtp() {
  return useMutation({ mutationFn: verifyOtp });
}
