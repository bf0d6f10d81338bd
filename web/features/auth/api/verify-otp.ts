import type { VerifyOtpBody } from '../../../../shared/contracts/auth';
import type {
  VerifyOtpResponse,
  VerifyTwoFactorBody,
} from '../../../../shared/contracts/two-factor';
import type { SignInResponse } from '../../../../shared/contracts/user';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** A session, or (two-factor on) a challenge for the app code. */
export async function verifyOtp(body: VerifyOtpBody): Promise<VerifyOtpResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-otp', body);
  return (await res.json()) as VerifyOtpResponse;
}

export function useVerifyOtp() {
  return useAction(verifyOtp);
}

export async function verifyTwoFactor(body: VerifyTwoFactorBody): Promise<SignInResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-two-factor', body);
  return (await res.json()) as SignInResponse;
}

export function useVerifyTwoFactor() {
  return useAction(verifyTwoFactor);
}
