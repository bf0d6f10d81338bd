import type { VerifyOtpBody } from '../../../../shared/contracts/auth';
import type {
  VerifyOtpResponse,
  VerifyTwoFactorBody,
} from '../../../../shared/contracts/two-factor';
import type { SignInResponse } from '../../../../shared/contracts/user';
import { apiJson } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** A session, or (two-factor on) a challenge for the app code. */
export function verifyOtp(body: VerifyOtpBody): Promise<VerifyOtpResponse> {
  return apiJson<VerifyOtpResponse>('POST', '/api/auth/verify-otp', body);
}

export function useVerifyOtp() {
  return useAction(verifyOtp);
}

export function verifyTwoFactor(body: VerifyTwoFactorBody): Promise<SignInResponse> {
  return apiJson<SignInResponse>('POST', '/api/auth/verify-two-factor', body);
}

export function useVerifyTwoFactor() {
  return useAction(verifyTwoFactor);
}
