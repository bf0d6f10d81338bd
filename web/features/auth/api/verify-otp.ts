import type { VerifyOtpBody } from '../../../../shared/contracts/auth';
import type { SignInResponse } from '../../../../shared/contracts/user';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export async function verifyOtp(body: VerifyOtpBody): Promise<SignInResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-otp', body);
  return (await res.json()) as SignInResponse;
}

export function useVerifyOtp() {
  return useAction(verifyOtp);
}
