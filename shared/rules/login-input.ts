import { OTP_LENGTH } from '../constants';

/** The code box keeps digits only and at most six of them. */
export function filterOtpInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export function isValidOtp(code: string): boolean {
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code);
}

/** The login form's own check: non-empty and contains '@'. */
export function isPlausibleEmail(email: string): boolean {
  return email.trim().length > 0 && email.includes('@');
}

/** Message colour: green if the text contains 'successful' or 'sent', otherwise red. */
export function loginMessageTone(message: string): 'success' | 'error' {
  return /successful|sent/.test(message) ? 'success' : 'error';
}

export const LOGIN_TEXT = {
  invalidEmail: 'Please enter a valid email address',
  invalidOtp: 'Please enter a valid 6-digit OTP',
  sendFailed: 'Failed to send OTP',
  verifyFailed: 'Invalid OTP',
  networkError: 'Network error. Please try again.',
  success: 'Login successful! Redirecting...',
  /** The second step when the account has two-factor on (docs/decisions/023-two-factor-sign-in.md). */
  appCodeRequired: 'Enter the code from your authenticator app',
  otpSent: (email: string) => `OTP sent to ${email}. Check the server console for the code.`,
} as const;
