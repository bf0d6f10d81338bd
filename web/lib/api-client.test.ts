import { describe, expect, it } from 'vitest';
import { serverMessage } from './api-client';

describe('serverMessage', () => {
  it('reads the message of our error body', () => {
    const error = new Error(
      '429: {"error":{"code":"RATE_LIMITED","message":"Too many requests."}}',
    );
    expect(serverMessage(error, 'fallback')).toBe('Too many requests.');
  });
  it('falls back when the body is not ours', () => {
    expect(serverMessage(new Error('502: Bad Gateway'), 'Failed to send OTP')).toBe(
      'Failed to send OTP',
    );
    expect(serverMessage('nope', 'x')).toBe('x');
  });
});
