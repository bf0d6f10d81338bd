import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  errorStatus,
  getQueryFn,
  keepIdempotencyKey,
  newIdempotencyKey,
  serverErrorDetails,
  serverFieldErrors,
  serverMessage,
} from './api-client';

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

describe('serverErrorDetails', () => {
  it('reads the details of our error body, and nothing from any other', () => {
    const error = new Error(
      '409: {"error":{"code":"CONFLICT","message":"The instance is starting, not running.","details":{"state":"starting"}}}',
    );
    expect(serverErrorDetails(error)).toEqual({ state: 'starting' });
    expect(
      serverErrorDetails(new Error('409: {"error":{"code":"CONFLICT","message":"x"}}')),
    ).toEqual({});
    expect(serverErrorDetails(new Error('409: {"error":{"details":["state"]}}'))).toEqual({});
    expect(serverErrorDetails(new Error('502: Bad Gateway'))).toEqual({});
    expect(serverErrorDetails(new TypeError('Failed to fetch'))).toEqual({});
    expect(serverErrorDetails('nope')).toEqual({});
  });
});

describe('serverFieldErrors', () => {
  it('reads the first message of each field, and nothing from any other body', () => {
    const error = new Error(
      '400: {"error":{"code":"VALIDATION_FAILED","message":"Invalid input","details":{"fields":{"email":["Not an address","Too long"],"name":[]}}}}',
    );
    expect(serverFieldErrors(error)).toEqual({ email: 'Not an address' });
    expect(
      serverFieldErrors(new Error('409: {"error":{"details":{"fields":{"hostId":"Not yours"}}}}')),
    ).toEqual({ hostId: 'Not yours' });
    expect(serverFieldErrors(new Error('400: {"error":{"details":{"fields":null}}}'))).toEqual({});
    expect(serverFieldErrors(new Error('502: Bad Gateway'))).toEqual({});
    expect(serverFieldErrors('nope')).toEqual({});
  });
});

describe('Idempotency-Key helpers', () => {
  it('keeps the key only while the outcome is unknown or refused for the moment', () => {
    expect(errorStatus(new Error('402: {}'))).toBe(402);
    expect(errorStatus(new TypeError('Failed to fetch'))).toBeNull();
    expect(keepIdempotencyKey(new TypeError('Failed to fetch'))).toBe(true);
    expect(keepIdempotencyKey(new Error('502: Bad Gateway'))).toBe(true);
    expect(keepIdempotencyKey(new Error('409: {"error":{"code":"IDEMPOTENCY_KEY_IN_USE"}}'))).toBe(
      true,
    );
    expect(keepIdempotencyKey(new Error('402: {"error":{"code":"INSUFFICIENT_CREDITS"}}'))).toBe(
      false,
    );
    expect(keepIdempotencyKey(new Error('400: {}'))).toBe(false);
  });

  it('makes random version-4 UUIDs', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('getQueryFn', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads a 401 body to its end before answering null (an unread body holds the request open)', async () => {
    let read = false;
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true;
          controller.enqueue(new TextEncoder().encode('{"error":{}}'));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    vi.stubGlobal('fetch', async () => new Response(body, { status: 401 }));
    const query = getQueryFn<{ id: string }>({ on401: 'returnNull' });
    const answer = await query({ queryKey: ['/api/auth/user'] } as never);
    expect(answer).toBeNull();
    expect(read).toBe(true);
    expect(body.locked).toBe(true);
  });
});
