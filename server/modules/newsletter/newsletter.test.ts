import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newsletterSubscriptions } from '../../db/schema';
import { clientAddresses, uniqueEmail as unique } from '../../test/addresses';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { NEWSLETTER_LIMITS } from './service';

let t: TestApp;
/** Each test gets its own client address so the per-IP limit does not leak between tests. */
const nextIp = clientAddresses(1);

withTestApp({}, (app) => {
  t = app;
});

function subscribe(payload: unknown, ip = nextIp()) {
  return t.request({
    method: 'POST',
    url: '/api/newsletter/subscribe',
    payload: payload as Record<string, unknown>,
    remoteAddress: ip,
  });
}

async function rowsFor(email: string) {
  return t.database.db
    .select()
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, email));
}

describe('POST /api/newsletter/subscribe', () => {
  it('stores the address with its source', async () => {
    const email = unique('reader');
    const res = await subscribe({ email, subscriptionSource: 'blog' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Successfully subscribed', email });
    const rows = await rowsFor(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subscriptionSource).toBe('blog');
  });

  it('treats the same address twice (in any case) as success without a second row', async () => {
    const email = unique('twice');
    const first = await subscribe({ email, subscriptionSource: 'blog' });
    const second = await subscribe({
      email: `  ${email.toUpperCase()} `,
      subscriptionSource: 'blog',
    });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await rowsFor(email)).toHaveLength(1);
  });

  it('defaults the source to blog', async () => {
    const email = unique('nosource');
    expect((await subscribe({ email })).statusCode).toBe(200);
    expect((await rowsFor(email))[0]?.subscriptionSource).toBe('blog');
  });

  it.each([
    [{ email: '' }, 'Please enter your email address.'],
    [{ email: '   ' }, 'Please enter your email address.'],
    [{}, 'Please enter your email address.'],
    [{ email: 'not-an-address' }, 'Please enter a valid email address'],
    [{ email: 42 }, 'Please enter your email address.'],
  ])('refuses %j with 400 and the field message', async (payload, message) => {
    const res = await subscribe(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: `email: ${message}`,
        details: { fields: { email: [message] } },
      },
    });
  });

  it('refuses an unknown source and a body that is not JSON with 4xx, never 500', async () => {
    const badSource = await subscribe({ email: unique('src'), subscriptionSource: 'spam' });
    expect(badSource.statusCode).toBe(400);
    expect(badSource.json().error.details.fields).toHaveProperty('subscriptionSource');

    const notJson = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
      remoteAddress: nextIp(),
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.code).toBe('BAD_REQUEST');
  });

  it('limits subscriptions per client address and answers 429 with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 0; i < NEWSLETTER_LIMITS.perIp.limit; i += 1) {
      expect((await subscribe({ email: unique(`burst${i}`) }, ip)).statusCode).toBe(200);
    }
    const limited = await subscribe({ email: unique('over') }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await subscribe({ email: unique('elsewhere') })).statusCode).toBe(200);

    t.clock.advance(NEWSLETTER_LIMITS.perIp.windowMs);
    expect((await subscribe({ email: unique('later') }, ip)).statusCode).toBe(200);
  });
});
