/**
 * What system/two-processes.e2e.test.ts (and webhooks-crash.e2e.test.ts) needs: PostgreSQL, the
 * server processes' environment, and what it does to the database and over HTTP: users, sessions,
 * listings and hosts written with the seed's factories (as the API tests' helpers do), and
 * plain `fetch` calls to one server process or the other.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { postgresAnswers } from '../scripts/server-processes';
import type { Db } from '../server/db/client';
import { testDatabaseUrl, testRedisUrl } from '../server/env';
import { randomToken } from '../server/lib/crypto';
import { hashSessionToken, SESSION_TTL_MS } from '../server/modules/auth/service';
import { sessionsRepo } from '../server/modules/auth/sessions-repo';
import { SESSION_COOKIE } from '../server/plugins/session';
import {
  createHost,
  createListing,
  createProvider,
  createUser,
  type ListingInput,
} from '../server/seed/factories';

/** PostgreSQL's server for these tests: TEST_DATABASE_URL's, else the one CI starts on 127.0.0.1:5432. */
export const ADMIN_URL = testDatabaseUrl() ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Redis when TEST_REDIS_URL names one. */
export const REDIS_URL = testRedisUrl();

/**
 * Whether PostgreSQL answers at ADMIN_URL: in CI one that does not fails the file (`what`
 * needs it); elsewhere the file is skipped.
 */
export async function postgresOrSkip(what: string): Promise<boolean> {
  const answers = await postgresAnswers(ADMIN_URL);
  if (!answers && process.env.CI) {
    throw new Error(`PostgreSQL does not answer at ${ADMIN_URL}: ${what} needs it.`);
  }
  return answers;
}

/**
 * A server process's environment on the database at `url`, keeping files in `dataDir`: quick
 * workers and demo provisioning, hosts and webhooks on 127.0.0.1 allowed (a lab), the local
 * PayPal sandbox, and the demo data when `demoData`.
 */
export const serverEnv = (
  url: string,
  dataDir: string,
  demoData: boolean,
): Record<string, string> => ({
  NODE_ENV: 'test',
  DATABASE_URL: url,
  ...(REDIS_URL ? { REDIS_URL } : {}),
  SEED_DEMO_DATA: String(demoData),
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  WORKER_INTERVAL_MS: '250',
  DEMO_PROVISIONING_DELAY_MS: '500',
  HOST_ADDRESS_ALLOWLIST: '127.0.0.1',
  ALLOW_PRIVATE_HOST_ADDRESSES: '1',
  PAYPAL_LOCAL_SANDBOX: 'true',
  // Shorter than the default 10 s, so that "taken over within 10 s of the kill" holds with
  // room to spare on a loaded machine (a lease renewed just before the kill runs its full
  // length after it).
  IDEMPOTENCY_LEASE_MS: '4000',
});

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One HTTP call; the body is parsed as JSON when it is JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** A user with credits and a live session, written as the API tests' signIn does. */
export async function signedInUser(db: Db, credits = '1000.00') {
  const user = await db.transaction((tx) => createUser(tx, { credits }));
  const token = randomToken();
  await sessionsRepo.insert(db, {
    tokenHash: hashSessionToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    userAgent: 'system test',
    ip: '127.0.0.1',
  });
  return { userId: user.id, cookie: `${SESSION_COOKIE}=${token}` };
}

/** A listing on a demo host of a new provider (the demo host simulator makes rentals ready). */
export async function demoListing(db: Db, input: Partial<ListingInput> = {}) {
  const provider = await createProvider(db, {});
  return createListing(db, {
    model: 'RTX 4090',
    hourlyRate: '1.50',
    totalCount: 100,
    isDemoHost: true,
    ...input,
    providerId: provider.id,
  });
}

/** An enrolled host (its agent's credential) with a two-GPU listing placed on it. */
export async function hostWithListing(db: Db) {
  const provider = await createProvider(db, {});
  const host = await createHost(db, { providerId: provider.id });
  const listing = await createListing(db, {
    providerId: provider.id,
    model: 'RTX 4090',
    hourlyRate: '2.00',
    totalCount: 2,
    hostId: host.id,
    hostGpuIndexes: [0, 1],
  });
  return { host, listing };
}

/** The rent dialog's body for a listing at its own price. */
export function rentBody(listing: { id: number; providerId: number; hourlyRateMicros: bigint }) {
  const rate = Number(listing.hourlyRateMicros) / 1e6;
  return {
    gpuListingId: listing.id,
    providerId: listing.providerId,
    durationHours: 2,
    hourlyRate: rate.toFixed(2),
    totalCost: (rate * 2).toFixed(2),
  };
}

/** Rows of a raw query. */
export async function rows<T = Record<string, unknown>>(
  db: Db,
  query: ReturnType<typeof sql>,
): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Polls `probe` every `everyMs` until it gives a value or `ms` pass (then null). */
export async function within<T>(
  ms: number,
  probe: () => Promise<T | null | undefined | false>,
  everyMs = 25,
): Promise<T | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(everyMs);
  }
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export { sql };
