import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../lib/crypto';
import { GUESS_LIMITS } from '../../lib/guess-limits';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey } from '../../test/public-api';

/**
 * Wrong API keys (issue 39): counted per client address and per key prefix (the part a key list
 * shows); once either has had too many, a wrong key is 429 with Retry-After instead of 401.
 * A right key never counts and is never refused by them (256 random bits are not guessed).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { apiKey } = GUESS_LIMITS;

const call = (key: string, from: string) =>
  t.request({
    method: 'GET',
    url: '/api/v1/gpu-listings',
    headers: { authorization: `Bearer ${key}` },
    remoteAddress: from,
  });

describe('wrong API keys', () => {
  it('from one address: 401 up to the limit, then 429; a right key from there still works', async () => {
    const me = await t.signIn();
    const { key } = await createApiKey(t, me.cookie, ['read']);
    const from = '198.51.100.30';
    const limit = apiKey.perAddress.limit;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 5; i++)
      statuses.push((await call(`rgpu_${randomToken(32)}`, from)).statusCode);
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(statuses.slice(limit)).toEqual(Array(5).fill(429));

    const limited = await call('not-even-a-key', from);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(apiKey.perAddress.windowMs / 1000);
    expect(limited.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.any(String),
        details: { retryAfterSeconds: retryAfter },
      },
    });
    expect((await call(key, from)).statusCode).toBe(200);
    // No key at all is not a guess.
    const none = await t.request({
      method: 'GET',
      url: '/api/v1/gpu-listings',
      remoteAddress: from,
    });
    expect(none.statusCode).toBe(401);
    expect((await call(`rgpu_${randomToken(32)}`, '198.51.100.31')).statusCode).toBe(401);
  });

  it("per key prefix: guesses at one key's hidden part from many addresses stop at the limit", async () => {
    const me = await t.signIn();
    const { key } = await createApiKey(t, me.cookie, ['read']);
    const prefix = key.slice(0, 'rgpu_'.length + 8);
    const limit = apiKey.perTarget.limit;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 5; i++)
      statuses.push((await call(`${prefix}${randomToken(24)}`, `10.30.0.${i + 1}`)).statusCode);
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(statuses.slice(limit)).toEqual(Array(5).fill(429));
    // Another prefix from a fresh address is a plain 401; the key itself works.
    expect((await call(`rgpu_${randomToken(32)}`, '10.30.1.1')).statusCode).toBe(401);
    expect((await call(key, '10.30.1.2')).statusCode).toBe(200);
  });
});
