import { describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '../../shared/contracts/limits';
import type { TestApp } from '../test/app';
import { type World, withTestApp } from '../test/suite';
import { world } from '../test/world';

let t: TestApp;
let w: World;
withTestApp({}, (app) => {
  t = app;
  w = world(t);
});

const UNSTORABLE = 'Contains a character that cannot be stored';

function expectRefused(res: { statusCode: number; json(): unknown }, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({
    error: {
      code: 'VALIDATION_FAILED',
      message: `${field}: ${UNSTORABLE}`,
      details: { fields: { [field]: [UNSTORABLE] } },
    },
  });
}

describe('text the database cannot store', () => {
  it.each([
    ['a NUL', 'Hello\u0000world'],
    ['a lone high surrogate', 'Hello \uD800'],
    ['a lone low surrogate', '\uDC00 world'],
  ])('refuses %s in a JSON body field, naming it, and stores nothing', async (_what, bio) => {
    const { userId, cookie } = await t.signIn();
    const res = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { bio, location: 'Berlin' },
      cookie,
    });
    expectRefused(res, 'bio');
    const profile = await t.request({ method: 'GET', url: `/api/users/${userId}`, cookie });
    expect(profile.json().location).toBeNull();
  });

  it('accepts emoji and other well-formed surrogate pairs', async () => {
    const { userId, cookie } = await t.signIn();
    const res = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { bio: 'GPUs 🚀 漢字' },
      cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().bio).toBe('GPUs 🚀 漢字');
  });

  it('names a nested field, and a key that holds the character', async () => {
    const { cookie } = await t.signIn();
    const nested = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: { specifications: { cooling: 'x\u0000' } },
      cookie,
    });
    expectRefused(nested, 'specifications.cooling');
    const key = await t.request({
      method: 'POST',
      url: '/api/contact',
      payload: { 'na\u0000me': 'x' },
    });
    expectRefused(key, 'na\uFFFDme');
  });

  it('refuses it inside specifications sent as JSON text', async () => {
    const provider = await w.provider();
    const res = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: {
        providerId: provider.providerId,
        model: 'RTX 4090',
        memory: '24GB',
        location: 'Berlin',
        hourlyRate: '1.50',
        specifications: JSON.stringify({ additionalSpecs: 'a\u0000b' }),
      },
      cookie: provider.cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields).toEqual({
      'specifications.additionalSpecs': [UNSTORABLE],
    });
  });

  it('refuses it in the query string', async () => {
    expectRefused(
      await t.request({ method: 'GET', url: '/api/gpu-listings?model=a%00b' }),
      'model',
    );
    expectRefused(
      await t.request({ method: 'GET', url: '/api/gpu-listings?sort=x&gpuType=%00' }),
      'gpuType',
    );
  });

  it('refuses it in a path parameter', async () => {
    const { cookie } = await t.signIn();
    expectRefused(
      await t.request({ method: 'GET', url: '/api/users/abc%00def', cookie }),
      'userId',
    );
    expectRefused(await t.request({ method: 'DELETE', url: '/api/ssh-keys/%00', cookie }), 'id');
  });
});

describe('shared maximum lengths', () => {
  it.each([
    ['bio', TEXT_LIMITS.bio],
    ['location', TEXT_LIMITS.location],
    ['firstName', TEXT_LIMITS.firstName],
    ['company', TEXT_LIMITS.company],
  ])('profile %s: %i characters pass, one more is refused', async (field, max) => {
    const { userId, cookie } = await t.signIn();
    const ok = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { [field]: 'x'.repeat(max) },
      cookie,
    });
    expect(ok.statusCode).toBe(200);
    const tooLong = await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      payload: { [field]: 'x'.repeat(max + 1) },
      cookie,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(tooLong.json().error.details.fields)).toEqual([field]);
  });

  it('key names stop at the shared limit', async () => {
    const { cookie } = await t.signIn();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/api-keys',
      payload: { name: 'k'.repeat(TEXT_LIMITS.keyName + 1) },
      cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.name).toEqual([
      `Name must be at most ${TEXT_LIMITS.keyName} characters`,
    ]);
  });
});

describe('one money schema', () => {
  it.each(['1e20', '9223372036854775808', 'abc', '1.505', '-1.50', 1e20])(
    'POST /api/rentals refuses hourlyRate %j with 400 VALIDATION_FAILED',
    async (hourlyRate) => {
      const { cookie } = await t.signIn({ credits: '100.00' });
      const listing = await w.listing();
      const res = await t.request({
        method: 'POST',
        url: '/api/rentals',
        payload: { ...w.rentBody(listing), hourlyRate },
        cookie,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.details.fields)).toEqual(['hourlyRate']);
    },
  );

  it('POST /api/rentals refuses a huge totalCost, and ids beyond the database integer', async () => {
    const { cookie } = await t.signIn({ credits: '100.00' });
    const listing = await w.listing();
    const total = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: { ...w.rentBody(listing), totalCost: '9223372036854775808' },
      cookie,
    });
    expect(total.statusCode).toBe(400);
    expect(Object.keys(total.json().error.details.fields)).toEqual(['totalCost']);
    const id = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: { ...w.rentBody(listing), gpuListingId: 99_999_999_999 },
      cookie,
    });
    expect(id.statusCode).toBe(400);
    expect(Object.keys(id.json().error.details.fields)).toEqual(['gpuListingId']);
  });

  it('still rents at the quoted rate, sent as a string or a number', async () => {
    const { cookie } = await t.signIn({ credits: '100.00' });
    const listing = await w.listing({ hourlyRate: '1.50' });
    const res = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: { ...w.rentBody(listing, 2), hourlyRate: 1.5, totalCost: '3.00' },
      cookie,
    });
    expect(res.statusCode).toBe(201);
  });

  it('listings refuse an hourly rate beyond the bound; payments a malformed custom amount', async () => {
    const provider = await w.provider();
    const listing = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: {
        providerId: provider.providerId,
        model: 'RTX 4090',
        memory: '24GB',
        location: 'Berlin',
        hourlyRate: '1e20',
      },
      cookie: provider.cookie,
    });
    expect(listing.statusCode).toBe(400);
    expect(listing.json().error.details.fields.hourlyRate).toEqual([
      'Enter an amount in dollars, such as 1.50',
    ]);
    const order = await t.request({
      method: 'POST',
      url: '/api/payments/paypal/order',
      payload: { amount: '9223372036854775808' },
      cookie: provider.cookie,
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().error.details.fields.amount).toEqual([
      'Enter an amount from $1 to $1,000 (whole cents).',
    ]);
  });
});
