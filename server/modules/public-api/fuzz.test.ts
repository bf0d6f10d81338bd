import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema';
import { generateSshKeyPair } from '../../lib/ssh-keypair';
import { createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { type FakePaypal, startFakePaypal } from '../../test/fake-paypal';
import {
  type ArbitraryOptions,
  deref,
  invalidArbitrary,
  type Schema,
  validArbitrary,
  weirdString,
} from '../../test/openapi-arbitrary';
import { paypalEnv } from '../../test/payments';
import { world } from '../../test/world';

/**
 * The public API fuzzed from its own OpenAPI document (issue 12, item 6): every operation of
 * the document the app serves, at least RUNS generated requests each — mostly valid by the
 * operation's schemas, some deliberately not (wrong types, missing fields, out of range,
 * oversize, malformed JSON, odd unicode, bad Idempotency-Key) — sent with an admin key, a
 * read-only key, a revoked key, a made-up key or none. Every answer must be a documented
 * status (never 5xx) whose JSON body validates against the documented schema (ajv, JSON
 * Schema 2020-12). FUZZ_RUNS raises the runs per operation; FUZZ_SEED replays a run.
 */

const RUNS = Math.max(50, Number(process.env.FUZZ_RUNS ?? 60));
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CHANGING = new Set(['post', 'put', 'patch', 'delete']);
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];
/** The description's rule for Idempotency-Key: 1–255 printable ASCII. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body: { required: boolean; schema: Schema } | null;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

type Caller = 'admin' | 'reader' | 'revoked' | 'none' | 'made-up';
type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string };
interface Wire {
  caller: Caller;
  path: Record<string, unknown>;
  query: [string, unknown][];
  headers: Record<string, string>;
  body: Body;
}

// ---- The document ----------------------------------------------------------------------------

function operationsOf(document: Record<string, unknown>): Operation[] {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const shared = (item.parameters ?? []) as unknown as Schema[];
    for (const [method, op] of Object.entries(item)) {
      if (!METHOD_ORDER.includes(method)) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Schema[])].map(
        (p) => deref(p, document) as unknown as Parameter,
      );
      const requestBody = op.requestBody ? deref(op.requestBody as Schema, document) : undefined;
      const json = (requestBody?.content as Record<string, { schema: Schema }> | undefined)?.[
        'application/json'
      ];
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method,
        path,
        parameters,
        body: json ? { required: requestBody?.required === true, schema: json.schema } : null,
        responses: Object.fromEntries(
          Object.entries(op.responses as Record<string, Schema>).map(([status, r]) => [
            status,
            deref(r, document),
          ]),
        ) as Operation['responses'],
      });
    }
  }
  // Reads first, deletes last, so later operations still find live resources.
  return operations.sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
}

// ---- JSON Schema validation (ajv, 2020-12) --------------------------------------------------

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
/** Path and query values arrive as text: coerced like the server's zod schemas coerce them. */
const coercing = addFormats(new Ajv2020({ strict: false, coerceTypes: true }));
const compiled = new Map<string, ValidateFunction>();

/** A validator of a schema, its `$ref`s resolved against the document's components. */
function validatorOf(
  schema: Schema,
  document: Record<string, unknown>,
  coerce = false,
): ValidateFunction {
  const key = `${coerce}:${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    const rooted =
      typeof schema === 'boolean' ? schema : { ...schema, components: document.components };
    validate = (coerce ? coercing : ajv).compile(rooted);
    compiled.set(key, validate);
  }
  return validate;
}

// ---- Requests ------------------------------------------------------------------------------

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean' || value === null
      ? String(value)
      : (JSON.stringify(value) ?? '');

/** encodeURIComponent, with a lone surrogate sent as its (invalid) UTF-8 bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
          return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

const MALFORMED_JSON = [
  '{',
  '{"gpuListingId":',
  '[1,2',
  'nul',
  '"unterminated',
  '{"a":1}}',
  "{'single':'quotes'}",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\u0000',
  '',
  '{"a":"\\ud800"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
];

/**
 * GET /events holds a request for up to `wait` real seconds while nothing new matches (a cursor
 * at the end, a type or subject no event has). A few such holds spend the operation's 30 s
 * budget: a CI run got 27 of its 60 requests. So an in-range `wait` is sent as 0; its bounds
 * and forms (too big, negative, fractions, words) are still sent as generated, and answer at
 * once. The hold itself is tested in server/modules/events/log.test.ts and cli/commands/events.test.ts.
 */
function withoutHolds(w: Wire): Wire {
  const holds = (value: unknown) => {
    const seconds = Number(text(value));
    return Number.isInteger(seconds) && seconds >= 1 && seconds <= 30;
  };
  if (!w.query.some(([k, v]) => k === 'wait' && holds(v))) return w;
  return { ...w, query: w.query.map(([k, v]) => [k, k === 'wait' && holds(v) ? '0' : v]) };
}

function requestArbitrary(op: Operation, options: ArbitraryOptions): fc.Arbitrary<Wire> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const valid = (s: Schema, name?: string) => validArbitrary(s, options, 0, name);
  /** A path id is named by the collection before it: `/instances/{id}` → `instanceId`. */
  const nameOf = (p: Parameter) => {
    if (p.in === 'query' && p.name === 'cursor') return `cursor ${op.path}`;
    if (p.in !== 'path' || p.name !== 'id') return p.name;
    const segments = op.path.split('/');
    const before = segments[segments.indexOf(`{${p.name}}`) - 1] ?? '';
    return `${singular(before)}Id`;
  };
  const invalid = (s: Schema) => invalidArbitrary(s, options);

  const caller: fc.Arbitrary<Caller> = fc.oneof(
    { weight: 16, arbitrary: fc.constant('admin' as const) },
    { weight: 2, arbitrary: fc.constant('reader' as const) },
    { weight: 1, arbitrary: fc.constant('revoked' as const) },
    { weight: 1, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('made-up' as const) },
  );
  const path = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, valid(p.schema, nameOf(p))])),
  );
  const query = fc
    .record(Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema, nameOf(p))])), {
      requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
    })
    .map((q) => Object.entries(q) as [string, unknown][]);
  const documentedHeaders = fc
    .record(Object.fromEntries(headerParams.map((p) => [p.name, valid(p.schema).map(text)])), {
      requiredKeys: headerParams.filter((p) => p.required).map((p) => p.name),
    })
    .map((h) => h as Record<string, string>);
  const idempotency = CHANGING.has(op.method)
    ? fc.option(
        fc.oneof(
          // A few reused keys: replays and 422s for another body.
          fc.constantFrom('fuzz-a', 'fuzz-b', 'fuzz-c'),
          fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
          fc.string({ unit: 'grapheme-ascii', minLength: 255, maxLength: 255 }),
        ),
        { nil: undefined },
      )
    : fc.constant(undefined);
  const headers = fc
    .tuple(documentedHeaders, idempotency)
    .map(([h, key]) => (key === undefined ? h : { ...h, 'idempotency-key': key }));
  const body: fc.Arbitrary<Body> = op.body
    ? valid(op.body.schema).map((value) => ({ kind: 'json' as const, value }))
    : fc.constant({ kind: 'none' as const });

  const base = fc.record({ caller, path, query, headers, body });

  // One part of a valid request made wrong (or odd).
  const mutations: fc.Arbitrary<(w: Wire) => Wire>[] = [
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.oneof(weirdString, fc.jsonValue()))
      .map(([name, value]) => (w: Wire) => ({ ...w, query: [...w.query, [name, value]] })),
  ];
  for (const p of pathParams) {
    mutations.push(
      invalid(p.schema).map((bad) => (w: Wire) => ({ ...w, path: { ...w.path, [p.name]: bad } })),
    );
  }
  for (const p of queryParams) {
    mutations.push(
      invalid(p.schema).map((bad) => (w: Wire) => ({
        ...w,
        query: [...w.query.filter(([n]) => n !== p.name), [p.name, bad]],
      })),
      fc.tuple(valid(p.schema), valid(p.schema)).map(([a, b]) => (w: Wire) => ({
        ...w,
        query: [...w.query, [p.name, a], [p.name, b]],
      })),
    );
  }
  if (CHANGING.has(op.method)) {
    mutations.push(
      fc
        .constantFrom('', 'x'.repeat(256), 'tab\there', 'caf\u00e9', '\u00ff\u00fe')
        .map((key) => (w: Wire) => ({ ...w, headers: { ...w.headers, 'idempotency-key': key } })),
    );
  }
  if (op.body) {
    const { schema } = op.body;
    mutations.push(
      invalid(schema).map((value) => (w: Wire) => ({ ...w, body: { kind: 'json', value } })),
      fc.constant((w: Wire) => ({ ...w, body: { kind: 'none' } })),
      fc
        .oneof(
          fc.constantFrom(...MALFORMED_JSON),
          valid(schema).chain((v) => {
            const json = JSON.stringify(v) ?? '';
            return fc.nat(Math.max(0, json.length - 1)).map((n) => json.slice(0, n));
          }),
        )
        .map((raw) => (w: Wire) => ({
          ...w,
          body: { kind: 'raw', text: raw, contentType: 'application/json' },
        })),
      fc
        .tuple(
          valid(schema),
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json-patch+json',
            'application/json; charset=utf-16',
          ),
        )
        .map(([v, contentType]) => (w: Wire) => ({
          ...w,
          body: { kind: 'raw', text: JSON.stringify(v) ?? '', contentType },
        })),
      // Over the 1 MB body limit.
      fc.constant((w: Wire) => ({
        ...w,
        body: {
          kind: 'raw',
          text: JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) }),
          contentType: 'application/json',
        },
      })),
    );
  } else if (CHANGING.has(op.method)) {
    mutations.push(
      fc.jsonValue({ maxDepth: 2 }).map((value) => (w: Wire) => ({
        ...w,
        body: { kind: 'json', value },
      })),
    );
  }

  return fc.oneof(
    { weight: 6, arbitrary: base },
    {
      weight: 4,
      arbitrary: fc.tuple(base, fc.oneof(...mutations)).map(([w, mutate]) => mutate(w)),
    },
  );
}

/** Whether the request is valid by the document: true, false, or null when it cannot tell. */
function documentValid(op: Operation, w: Wire, document: Record<string, unknown>): boolean | null {
  for (const p of op.parameters.filter((q) => q.in === 'path')) {
    const value = text(w.path[p.name]);
    // Coercion needs a parent object: the value is validated as { v }.
    const wrapped = { type: 'object', properties: { v: p.schema }, required: ['v'] };
    if (value === '' || !validatorOf(wrapped, document, true)({ v: value })) return false;
  }
  const names = new Map<string, unknown[]>();
  for (const [name, value] of w.query) names.set(name, [...(names.get(name) ?? []), value]);
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const query: Record<string, string> = {};
  for (const p of queryParams) {
    const values = names.get(p.name);
    if (!values) continue;
    if (values.length > 1) return null;
    query[p.name] = text(values[0]);
  }
  const querySchema = {
    type: 'object',
    properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
    required: queryParams.filter((p) => p.required).map((p) => p.name),
  };
  if (!validatorOf(querySchema, document, true)(query)) return false;
  const key = w.headers['idempotency-key'];
  if (CHANGING.has(op.method) && key !== undefined && !IDEMPOTENCY_KEY.test(key)) return false;
  if (!op.body) return w.body.kind === 'none' ? true : null;
  switch (w.body.kind) {
    case 'none':
      return !op.body.required;
    case 'json':
      return validatorOf(op.body.schema, document)(w.body.value);
    case 'raw': {
      // A charset the body does not have: the document does not say; the server reads UTF-8.
      if (/^application\/json;/i.test(w.body.contentType)) return null;
      if (w.body.contentType !== 'application/json') return false;
      try {
        return validatorOf(op.body.schema, document)(JSON.parse(w.body.text));
      } catch {
        return false;
      }
    }
  }
}

// ---- The run -------------------------------------------------------------------------------

let t: TestApp;
let fake: FakePaypal;
let document: Record<string, unknown>;
const keys: Record<'admin' | 'reader' | 'revoked' | 'other', string> = {
  admin: '',
  reader: '',
  revoked: '',
  other: '',
};
/** Ids of the fuzz keys themselves: revoking them would end the run's coverage. */
const protectedIds = new Set<string>();
/** Ids seen in answers, by the name a request would carry them under (`instanceId`, …). */
const knownIds = new Map<string, unknown[]>();
const sshPublicKeys = Array.from(
  { length: 40 },
  (_, i) => generateSshKeyPair(`fuzz-${i}`).publicKey,
);
let requests = 0;

/** `sshKeys` → `sshKey`, `ssh-keys` → `sshKey`: the singular camelCase of a collection. */
const singular = (collection: string) =>
  collection.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/s$/, '');

function remember(name: string, value: unknown): void {
  if (typeof value === 'string' ? protectedIds.has(value) : !Number.isSafeInteger(value)) return;
  for (const pool of [name, '*']) {
    const values = knownIds.get(pool) ?? [];
    if (!values.includes(value)) values.push(value);
    knownIds.set(pool, values.slice(-60));
  }
}

/**
 * Keeps the ids of an answer: `id` under `instances`/`instance` as `instanceId`, any `…Id` field
 * by its own name, and `nextCursor` as the `cursor` of the operation's path.
 */
function harvest(value: unknown, path: string, key = '', context = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) harvest(item, path, key, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) harvest(v, path, k, key);
  } else if (key === 'id' && context) {
    remember(`${singular(context)}Id`, value);
  } else if (key.endsWith('Id')) {
    remember(key, value);
  } else if (key === 'nextCursor' && typeof value === 'string') {
    remember(`cursor ${path}`, value);
  }
}

/** Known values a schema accepts: those seen under the name, else any id seen. */
function known(schema: Record<string, unknown>, name?: string): readonly unknown[] {
  const validate = validatorOf(schema, document);
  const byName = (knownIds.get(name ?? '') ?? []).filter((v) => validate(v));
  if (byName.length > 0 || name?.startsWith('cursor ')) return byName;
  return (knownIds.get('*') ?? []).filter((v) => validate(v));
}

async function v1(
  key: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) {
  requests++;
  const res = await t.request({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  if (res.body) harvest(res.json(), url.split('?')[0] ?? url);
  return res.statusCode === 204 ? {} : res.json();
}

/**
 * Reads every parameterless list of the document with a key, keeping the ids it answers, and
 * once more a page of one (`limit` at its minimum) for a cursor to the next page.
 */
async function harvestLists(key: string): Promise<void> {
  for (const op of operationsOf(document)) {
    if (op.method !== 'get' || op.parameters.some((p) => p.in === 'path' || p.required)) continue;
    const limit = op.parameters.find((p) => p.in === 'query' && p.name === 'limit');
    const minimum = limit && typeof limit.schema === 'object' ? limit.schema.minimum : undefined;
    for (const query of ['', ...(typeof minimum === 'number' ? [`?limit=${minimum}`] : [])]) {
      requests++;
      const res = await t.request({
        method: 'GET',
        url: `/api/v1${op.path}${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      if (res.statusCode === 200 && String(res.headers['content-type']).includes('json')) {
        harvest(res.json(), op.path);
      }
    }
  }
}

async function apiKey(cookie: string, permissions: string[]): Promise<{ key: string; id: string }> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/api-keys',
    cookie,
    payload: { name: `fuzz ${permissions.join(' ')}`, permissions },
  });
  expect(res.statusCode).toBe(201);
  const { key, id } = res.json() as { key: string; id: string };
  // Enterprise: 25,000 requests an hour, so the run does not meet 429 by accident.
  await t.database.db.update(apiKeys).set({ rateTier: 'enterprise' }).where(eq(apiKeys.id, id));
  return { key, id };
}

beforeAll(async () => {
  fake = await startFakePaypal();
  t = await createTestApp({ env: paypalEnv(fake) });
  const w = world(t);
  const served = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(served.statusCode).toBe(200);
  document = served.json();

  const owner = await t.signIn({ credits: '1000000.00' });
  const other = await t.signIn({ credits: '1000.00' });
  const admin = await apiKey(owner.cookie, ['read', 'write', 'admin']);
  const reader = await apiKey(owner.cookie, ['read']);
  const revoked = await apiKey(owner.cookie, ['read', 'write', 'admin']);
  await t.request({
    method: 'DELETE',
    url: `/api/auth/api-keys/${revoked.id}`,
    cookie: owner.cookie,
  });
  const theirs = await apiKey(other.cookie, ['read', 'write', 'admin']);
  for (const id of [admin.id, reader.id]) protectedIds.add(id);
  Object.assign(keys, {
    admin: admin.key,
    reader: reader.key,
    revoked: revoked.key,
    other: theirs.key,
  });
  // Spare keys of the owner, for the revoke operation to find.
  for (let i = 0; i < 3; i++) await apiKey(owner.cookie, ['read']);

  // The owner is a provider too, with a listing of their own, for the provider operations.
  const { id: providerId } = await createProvider(t.database.db, { userId: owner.userId });
  await w.listing({ providerId, model: 'L40S', hourlyRate: '1.20', totalCount: 2 });
  const listings = [
    await w.listing({ model: 'H100', hourlyRate: '4.00', totalCount: 100 }),
    await w.listing({ model: 'RTX 4090', hourlyRate: '0.80', totalCount: 100 }),
    await w.listing({ model: 'A100', hourlyRate: '2.00', totalCount: 100 }),
  ];
  for (const [key, count] of [
    [admin.key, 3],
    [theirs.key, 1],
  ] as const) {
    for (let i = 0; i < count; i++) {
      await v1(key, 'POST', '/ssh-keys', {
        name: `seed ${i}`,
        publicKey: generateSshKeyPair(`seed-${i}`).publicKey,
      });
    }
    for (const listing of listings) {
      await v1(key, 'POST', '/instances', { gpuListingId: listing.id });
      await v1(key, 'POST', '/instances', { gpuListingId: listing.id, durationHours: 3 });
    }
  }
  // Some ready, one of them stopped, so start and stop find instances in every state.
  t.clock.advance(60_000);
  await t.app.deps.worker.runOnce(t.clock.now());
  const mine = (await v1(admin.key, 'GET', '/instances?status=running')) as {
    instances: { id: number; billingPlan: string }[];
  };
  const metered = mine.instances.find((i) => i.billingPlan === 'metered');
  if (metered) await v1(admin.key, 'PATCH', `/instances/${metered.id}/stop`);
  await t.app.deps.worker.runOnce(t.clock.now());
  await harvestLists(theirs.key);
  await harvestLists(admin.key);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

function authorization(caller: Caller): string | undefined {
  switch (caller) {
    case 'admin':
      return `Bearer ${keys.admin}`;
    case 'reader':
      return `Bearer ${keys.reader}`;
    case 'revoked':
      return `Bearer ${keys.revoked}`;
    case 'made-up':
      return 'Bearer rgpu_0000000000000000000000000000000000000000';
    case 'none':
      return undefined;
  }
}

async function send(op: Operation, w: Wire): Promise<LightMyRequestResponse | null> {
  // A path parameter that is a whole dot segment ("." or "..") is no request for that path:
  // every HTTP client removes such segments first (RFC 3986 §5.2.4), so the server sees another.
  if (Object.values(w.path).some((value) => /^\.{1,2}$/.test(text(value)))) return null;
  let url = `/api/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(text(w.path[name])))}`;
  const query = w.query.map(([k, v]) => `${encode(k)}=${encode(text(v))}`).join('&');
  if (query) url += `?${query}`;
  const headers: Record<string, string> = { ...w.headers };
  const auth = authorization(w.caller);
  if (auth) headers.authorization = auth;
  let payload: string | undefined;
  if (w.body.kind === 'json') {
    payload = JSON.stringify(w.body.value);
    headers['content-type'] = 'application/json';
  } else if (w.body.kind === 'raw') {
    payload = w.body.text;
    headers['content-type'] = w.body.contentType;
  }
  try {
    requests++;
    return await t.app.inject({
      method: op.method.toUpperCase() as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
  } catch (error) {
    // A header value Node refuses to send is no request at all.
    if (error instanceof TypeError && /header/i.test(error.message)) return null;
    throw error;
  }
}

/** Where the answer departs from the document (or from the access rules it describes). */
function problemsOf(
  op: Operation,
  w: Wire,
  valid: boolean | null,
  res: LightMyRequestResponse,
): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500) problems.push(`a ${status}: ${res.body.slice(0, 500)}`);
  const documented =
    op.responses[String(status)] ??
    op.responses[`${Math.floor(status / 100)}XX`] ??
    op.responses.default;
  if (!documented) {
    problems.push(`status ${status} is not documented (${Object.keys(op.responses).join(', ')})`);
  } else {
    const content = documented.content ?? {};
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const media = type ? content[type] : undefined;
    if (Object.keys(content).length === 0) {
      if (res.body !== '') {
        problems.push(`status ${status} documents no body but answered ${res.body.slice(0, 200)}`);
      }
    } else if (!media) {
      problems.push(
        `status ${status} answered ${type || 'no content type'}, documented: ${Object.keys(content).join(', ')}`,
      );
    } else if (type === 'application/json' || type?.endsWith('+json')) {
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        problems.push(`status ${status} answered invalid JSON: ${res.body.slice(0, 200)}`);
      }
      const validate = validatorOf(media.schema, document);
      if (body !== undefined && !validate(body)) {
        problems.push(
          `status ${status} body does not match the document: ${JSON.stringify(validate.errors?.slice(0, 5))} in ${res.body.slice(0, 500)}`,
        );
      }
    } else if (!validatorOf(media.schema, document)(res.body)) {
      problems.push(`status ${status} ${type} body does not match the document`);
    }
  }
  const routing = /"code":"(INVALID_URL|URI_TOO_LONG)"/.test(res.body);
  if (!routing && (!res.headers['ratelimit-policy'] || !res.headers.ratelimit)) {
    problems.push(`status ${status} without the RateLimit headers`);
  }
  if (status === 429 && !res.headers['retry-after']) problems.push('a 429 without Retry-After');
  const ok = status >= 200 && status < 300;
  if (
    ['revoked', 'none', 'made-up'].includes(w.caller) &&
    !routing &&
    status !== 401 &&
    status !== 429
  ) {
    problems.push(`a ${w.caller} key answered ${status}, not 401`);
  }
  if (w.caller === 'reader' && CHANGING.has(op.method) && ok) {
    problems.push(`a read-only key changed something: ${status}`);
  }
  if (w.caller === 'admin' && valid === false && ok) {
    problems.push(`a request the document calls invalid answered ${status}`);
  }
  // 403 for what the user is not (a provider, another provider's listing) is fine; not for the
  // key's permissions.
  if (
    w.caller === 'admin' &&
    (status === 401 || (status === 403 && /"required":/.test(res.body)))
  ) {
    problems.push(`the admin key was refused: ${status} ${res.body.slice(0, 200)}`);
  }
  return problems;
}

describe('the public API fuzzed from its OpenAPI document', () => {
  it(`every operation, ≥${RUNS} generated requests each: documented statuses and shapes, no 5xx`, async () => {
    const started = Date.now();
    const startRequests = requests;
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const statuses: Record<string, Record<number, number>> = {};
    let skipped = 0;
    for (const [index, op] of operations.entries()) {
      const options: ArbitraryOptions = {
        root: document,
        known,
        examples: { publicKey: sshPublicKeys },
      };
      const seen: Record<number, number> = {};
      statuses[op.id] = seen;
      let runs = 0;
      let lastFailure = '';
      try {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(op, options).map(withoutHolds), async (w) => {
            runs++;
            const valid = documentValid(op, w, document);
            const res = await send(op, w);
            if (!res) {
              skipped++;
              return;
            }
            seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
            if (res.headers['content-type']?.toString().includes('json') && res.body) {
              try {
                harvest(JSON.parse(res.body), op.path);
              } catch {
                // problemsOf reports it.
              }
            }
            const problems = problemsOf(op, w, valid, res);
            if (problems.length > 0) {
              // The last failing request is the shrunk one; long strings cut for the report.
              const shown = JSON.stringify(w, (_, v) =>
                typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v,
              );
              lastFailure = `${problems.join('\n    ')}\n    request: ${shown}`;
              throw new Error(problems.join('\n'));
            }
          }),
          { numRuns: RUNS, seed: SEED + index, interruptAfterTimeLimit: 30_000 },
        );
      } catch (error) {
        const message = String((error as Error).message);
        const replay = /\{ seed: .*?\}/.exec(message)?.[0] ?? message.slice(0, 300);
        failures.push(`${op.id}: ${lastFailure || message.slice(0, 2000)}\n    ${replay}`);
      }
      expect(runs, op.id).toBeGreaterThanOrEqual(
        failures.some((f) => f.startsWith(op.id)) ? 1 : RUNS,
      );
      // Let instances move on (ready, stopped, timed out) between operations.
      t.clock.advance(30_000);
      await t.app.deps.worker.runOnce(t.clock.now());
      await harvestLists(keys.admin);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${operations.length} operations, ${requests - startRequests} requests (${skipped} not sendable), ${seconds} s, seed ${SEED} (FUZZ_SEED=${SEED} to replay)\n${Object.entries(
        statuses,
      )
        .map(([id, seen]) => `  ${id}: ${JSON.stringify(seen)}`)
        .join('\n')}`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
