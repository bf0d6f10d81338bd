import { describe, expect, it } from 'vitest';
import { looksLikeSystemError, userFacingMessage } from './system-error';

describe('system errors are not shown to people', () => {
  it('recognises Node system error codes and stack frames', () => {
    for (const text of [
      'Could not connect to the instance: getaddrinfo ENOTFOUND gpu-1.demo.rentgpu.dev',
      'connect ECONNREFUSED 127.0.0.1:5432',
      'read ECONNRESET',
      'Error: boom\n    at connect (node:net:1234:56)\n    at run (/app/server.js:1:2)',
    ]) {
      expect(looksLikeSystemError(text), text).toBe(true);
      expect(userFacingMessage(text, 'Clear words.')).toBe('Clear words.');
    }
  });

  it('leaves people’s words alone', () => {
    for (const text of [
      'No A6000 is free right now. Choose another GPU type or try again later.',
      'The instance is stopped, not running.',
      'Meet at 10:30 at the office.',
    ]) {
      expect(looksLikeSystemError(text), text).toBe(false);
      expect(userFacingMessage(text, 'x')).toBe(text);
    }
  });
});
