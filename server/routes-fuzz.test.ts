import fc from 'fast-check';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../shared/error-codes';
import { createTestApp, type TestApp } from './test/app';
import { type FakePaypal, startFakePaypal } from './test/fake-paypal';
import { paypalEnv } from './test/payments';

/**
 * Walks every route the app registers (from Fastify's own route table, so a new route is
 * covered without touching this file) with generated bad input, signed out and signed in:
 * no answer may be a 5xx, and every error answer carries {"error":{"code","message","details"}}
 * with a known code and details an object. The seed is fixed, so a failure repeats.
 */
const SEED = 20_261_122;
const CASES_PER_ROUTE = 50;

interface Route {
  method: HTTPMethods;
  url: string;
}

interface Case {
  params: string;
  query: string;
  body?: { payload: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
}

const NUL = '\u0000';
const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';

/** Path parameter values, already percent-encoded as they would appear in the URL. */
const BAD_PARAMS = [
  '0',
  '-1',
  '1.5',
  'abc',
  '9223372036854775808',
  '99999999999',
  '2147483648',
  '1e309',
  'NaN',
  'Infinity',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F',
  '%FF',
  '%',
  '%zz',
  'a'.repeat(150),
  'a'.repeat(600),
  '__proto__',
  'constructor',
  '..%2F..%2Fetc',
  '%27%20OR%201%3D1',
  '00000000-0000-0000-0000-000000000000',
  '%E2%80%AE',
  '%uD800',
  ' ',
  '%20',
  'null',
  'true',
];

const BAD_QUERIES = [
  '',
  '?limit=-1',
  '?limit=1e309',
  '?limit=abc&limit=2',
  '?a=%00',
  '?model=a%00b',
  '?a=%ED%A0%80',
  '?%00=1',
  '?__proto__[x]=1&constructor[prototype][y]=2',
  `?model=${'a'.repeat(5000)}`,
  '?cursor=%FF%FE',
  '?providerId=99999999999&sort=nope',
  '?cursor=not-a-cursor',
  '?limit=',
  '?%=%',
];

function nest(depth: number, open: string, close: string, inner = '1'): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** Raw bodies that JSON.stringify cannot produce, with their content type. */
const RAW_BODIES: { payload: string | Buffer; contentType?: string }[] = [
  { payload: '{', contentType: 'application/json' },
  { payload: '{"a":', contentType: 'application/json' },
  { payload: "{'a':1}", contentType: 'application/json' },
  { payload: 'NaN', contentType: 'application/json' },
  { payload: '{"hourlyRate":1e999,"amount":-1e999}', contentType: 'application/json' },
  { payload: 'null', contentType: 'application/json' },
  { payload: '[]', contentType: 'application/json' },
  { payload: '"text"', contentType: 'application/json' },
  { payload: '12345678901234567890123', contentType: 'application/json' },
  { payload: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
  { payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: 'application/json' },
  { payload: '{"a":"\\u0000"}', contentType: 'application/json' },
  { payload: '{"bio":"x\\ud800y"}', contentType: 'application/json' },
  { payload: '{"\\u0000":1}', contentType: 'application/json' },
  { payload: '{"name":"\\udc00"}', contentType: 'application/json' },
  { payload: nest(20_000, '[', ']'), contentType: 'application/json' },
  { payload: nest(5_000, '{"a":', '}'), contentType: 'application/json' },
  { payload: `{"a":"${'x'.repeat(900_000)}"}`, contentType: 'application/json' },
  { payload: `{"a":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' },
  { payload: '\uFEFF{"a":1}', contentType: 'application/json' },
  { payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { payload: '{"a":1}', contentType: 'text/plain' },
  { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { payload: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
  { payload: '{"a":1}', contentType: 'application/json; charset=latin1' },
  { payload: '', contentType: 'application/json' },
  { payload: '   ', contentType: 'application/json' },
  { payload: '{"a":1}', contentType: 'application/xml' },
  { payload: '{"a":1}', contentType: 'application/JSON' },
  { payload: '{"a":1}', contentType: '' },
];

/** Every field name the contracts know, so generated bodies reach the checks behind the first. */
const FIELDS = [
  'email',
  'otp',
  'name',
  'permissions',
  'publicKey',
  'gpuListingId',
  'providerId',
  'durationHours',
  'hourlyRate',
  'totalCost',
  'model',
  'memory',
  'cudaCores',
  'location',
  'bandwidth',
  'status',
  'availableCount',
  'totalCount',
  'specifications',
  'firstName',
  'lastName',
  'phone',
  'bio',
  'company',
  'website',
  'theme',
  'amount',
  'packageId',
  'currency',
  'payment_type',
  'subject',
  'message',
  'category',
  'subscriptionSource',
  'preferences',
  'notifications',
  'security',
  'privacy',
  'event_type',
  'resource',
  'id',
  '__proto__',
  'constructor',
];

const badString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}${NUL}${s}`),
  fc.string({ maxLength: 20 }).map((s) => `${s}${LONE_HIGH}`),
  fc.string({ maxLength: 20 }).map((s) => `${LONE_LOW}${s}`),
  fc.integer({ min: 100, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(
    '1e20',
    '9223372036854775808',
    '-0',
    'abc',
    '1.999',
    '0x10',
    ' 1 ',
    '',
    'RTX 4090',
    'dark',
    'standard',
    'a@b.co',
    '123456',
    '{"cooling":"\\u0000"}',
    '{"additionalSpecs":"\\ud800"}',
  ),
);

const badNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, 1e20, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 5e-324),
);

const badValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    badString,
    badNumber,
    fc.constantFrom(null, true, false),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), badString), tie('value'), {
      maxKeys: 3,
    }),
  ),
})).value;

const badObject = fc.dictionary(fc.constantFrom(...FIELDS), badValue, {
  minKeys: 0,
  maxKeys: 8,
});

function generatedBodies(count: number, seed: number): Case['body'][] {
  const values = fc.sample(fc.oneof(badObject, badObject, badValue), { seed, numRuns: count });
  return values.map((v) => ({
    payload: JSON.stringify(v) ?? 'null',
    contentType: 'application/json',
  }));
}

function casesFor(route: Route, seed: number, ownUserId: string | null): Case[] {
  const hasParams = route.url.includes(':');
  const params = ownUserId ? [...BAD_PARAMS, ownUserId] : BAD_PARAMS;
  const rawCount = RAW_BODIES.length;
  const generated = generatedBodies(CASES_PER_ROUTE, seed);
  const rng = fc.sample(fc.nat(), { seed: seed + 1, numRuns: CASES_PER_ROUTE * 3 });
  const pick = <T>(list: readonly T[], i: number): T => list[(rng[i] ?? 0) % list.length] as T;
  const cases: Case[] = [];
  for (let i = 0; i < CASES_PER_ROUTE; i++) {
    const body = i < rawCount ? RAW_BODIES[i] : generated[i];
    const crossSite = i % 7 === 3;
    cases.push({
      params: hasParams ? (i < params.length ? (params[i] as string) : pick(params, i)) : '',
      query: pick(BAD_QUERIES, CASES_PER_ROUTE + i),
      body,
      headers: crossSite ? { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } : {},
    });
  }
  return cases;
}

function urlFor(route: Route, param: string, query: string): string {
  const path = route.url.replace(/:[A-Za-z]+/g, () => param || '1');
  return `${path}${query}`;
}

/** The failure of an answer, or null when it is as every answer must be. */
function problemWith(status: number, text: string): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 200)}`;
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error) return `status ${status} without an error object: ${text.slice(0, 200)}`;
  if (!(ERROR_CODES as readonly unknown[]).includes(error.code)) {
    return `status ${status} with unknown code ${String(error.code)}`;
  }
  if (typeof error.message !== 'string') return `status ${status} without a message`;
  const details = error.details;
  if (typeof details !== 'object' || details === null || Array.isArray(details)) {
    return `status ${status} (${String(error.code)}) without details as an object: ${text.slice(0, 200)}`;
  }
  return null;
}

let fake: FakePaypal;
let t: TestApp;
const routes: Route[] = [];

beforeAll(async () => {
  fake = await startFakePaypal();
  t = await createTestApp({
    env: paypalEnv(fake),
    onRoute: (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // HEAD twins run their GET's handler; the GET is walked.
      for (const method of methods) {
        if (method !== 'HEAD') routes.push({ method, url: route.url });
      }
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('every route, fuzzed', () => {
  it('answers bad input with 4xx in the error body, never 5xx', async () => {
    expect(routes.length).toBeGreaterThan(30);
    // Demo Login needs its account (else it answers 503 DEMO_UNAVAILABLE, correctly).
    await t.signIn({ email: 'demo@rentgpu.dev', isDemo: true, credits: '100.00' });
    const histogram = new Map<number, number>();
    const problems: string[] = [];
    let requests = 0;
    let seed = SEED;
    for (const route of routes) {
      seed += 1;
      const user = await t.signIn({ credits: '100.00' });
      for (const signedIn of [false, true]) {
        for (const c of casesFor(route, seed, signedIn ? user.userId : null)) {
          const url = urlFor(route, c.params, c.query);
          const sendsBody = !['GET', 'HEAD'].includes(route.method);
          const headers: Record<string, string> = { ...c.headers };
          if (sendsBody && c.body?.contentType) headers['content-type'] = c.body.contentType;
          const res = await t.request({
            method: route.method,
            url,
            ...(sendsBody && c.body ? { payload: c.body.payload } : {}),
            headers,
            ...(signedIn ? { cookie: user.cookie } : {}),
          });
          requests += 1;
          histogram.set(res.statusCode, (histogram.get(res.statusCode) ?? 0) + 1);
          const problem = problemWith(res.statusCode, res.body);
          if (problem) {
            const body = c.body ? String(c.body.payload).slice(0, 80) : '';
            problems.push(
              `${route.method} ${url.slice(0, 120)} ${signedIn ? '(signed in)' : ''} ${body} → ${problem}`,
            );
          }
        }
      }
    }
    const statuses = [...histogram.entries()].sort(([a], [b]) => a - b);
    console.log(
      `route fuzz: ${routes.length} routes, ${requests} requests, statuses ${statuses
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')}`,
    );
    expect(problems.slice(0, 25)).toEqual([]);
  }, 300_000);
});
