import { describe, expect, it } from 'vitest';
import {
  filterOtpInput,
  isPlausibleEmail,
  isValidOtp,
  LOGIN_TEXT,
  loginMessageTone,
} from './login-input';

describe('code input', () => {
  it('keeps digits only, at most six', () => {
    expect(filterOtpInput('12a 3-4')).toBe('1234');
    expect(filterOtpInput('1234567890')).toBe('123456');
    expect(filterOtpInput('abc')).toBe('');
  });
  it('accepts exactly six digits', () => {
    expect(isValidOtp('123456')).toBe(true);
    expect(isValidOtp('12345')).toBe(false);
    expect(isValidOtp('12345a')).toBe(false);
  });
});

describe('login form rules', () => {
  it('needs a non-empty e-mail with an @', () => {
    expect(isPlausibleEmail('a@b')).toBe(true);
    expect(isPlausibleEmail('   ')).toBe(false);
    expect(isPlausibleEmail('ab.com')).toBe(false);
  });
  it('colours messages green when they say successful or sent', () => {
    expect(loginMessageTone(LOGIN_TEXT.success)).toBe('success');
    expect(loginMessageTone(LOGIN_TEXT.otpSent('a@b.co'))).toBe('success');
    expect(loginMessageTone(LOGIN_TEXT.verifyFailed)).toBe('error');
    expect(loginMessageTone(LOGIN_TEXT.networkError)).toBe('error');
  });
  it("holds the spec's texts", () => {
    expect(LOGIN_TEXT.otpSent('x@y.z')).toBe(
      'OTP sent to x@y.z. Check the server console for the code.',
    );
    expect(LOGIN_TEXT.invalidEmail).toBe('Please enter a valid email address');
    expect(LOGIN_TEXT.invalidOtp).toBe('Please enter a valid 6-digit OTP');
    expect(LOGIN_TEXT.success).toBe('Login successful! Redirecting...');
    expect(LOGIN_TEXT.sendFailed).toBe('Failed to send OTP');
    expect(LOGIN_TEXT.networkError).toBe('Network error. Please try again.');
  });
});
