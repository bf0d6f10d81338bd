import { z } from 'zod';
import { LOGIN_TEXT } from '../rules/login-input';
import { signInResponse } from './user';

/** docs/decisions/023-two-factor-sign-in.md */
export const twoFactorSetupResponse = z.object({
  /** The base32 key to type into an authenticator app; shown at setup only. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URI as a QR code (an SVG document). */
  qrSvg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>;

const code = z
  .string()
  .trim()
  .min(1, { message: LOGIN_TEXT.appCodeRequired })
  .max(32, { message: LOGIN_TEXT.appCodeRequired });

/** A 6-digit app code (enable: the app code only), or a recovery code (disable, sign-in). */
export const twoFactorCodeBody = z.object({ code });
export type TwoFactorCodeBody = z.input<typeof twoFactorCodeBody>;

export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;

/** verify-otp's answer when the account has two-factor on: no session yet. */
export const twoFactorChallengeResponse = z.object({
  message: z.string(),
  twoFactorRequired: z.literal(true),
  /** Sent back with the second factor to /api/auth/verify-two-factor; 5 minutes. */
  challenge: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeResponse>;

export const verifyOtpResponse = z.union([signInResponse, twoFactorChallengeResponse]);
export type VerifyOtpResponse = z.infer<typeof verifyOtpResponse>;

export const verifyTwoFactorBody = z.object({
  challenge: z.string().min(1).max(200),
  code,
});
export type VerifyTwoFactorBody = z.input<typeof verifyTwoFactorBody>;
