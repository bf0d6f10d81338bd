import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { createApp } from '../app';
import type { Database } from '../db/client';
import { parseEnv } from '../env';
import { ManualClock } from '../lib/clock';
import { randomToken } from '../lib/crypto';
import type { Mail, Mailer } from '../lib/mailer';
import type { Resolve } from '../lib/outbound-address';
import { MemoryRateLimiter, type RateLimiter } from '../lib/rate-limit';
import { encodeSignal, SIGNAL_CHANNEL } from '../lib/signals';
import { hashSessionToken, SESSION_TTL_MS } from '../modules/auth/service';
import { sessionsRepo } from '../modules/auth/sessions-repo';
import { SESSION_COOKIE } from '../plugins/session';
import { createUser, type UserInput } from '../seed/factories';
import { openTestDatabase } from './database';

/** Keeps every e-mail the app sends, for tests to read. */
export class CapturingMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
  close(): void {}
  lastCodeFor(email: string): string {
    const mail = [...this.sent].reverse().find((m) => m.to === email);
    const code = mail?.subject.match(/(\d{6})$/)?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  mailer: CapturingMailer;
  limiter: RateLimiter;
  /** Creates a user (with a wallet and optional credits) and a session; returns its cookie. */
  signIn(input?: UserInput): Promise<{ userId: string; cookie: string; token: string }>;
  /**
   * Moves the clock on by `ms` with the worker passing now and every `stepMs` (10 s) on the way, as a
   * server that stays up does: the server's own beat then has no gap (issue 39), so hosts
   * that fall silent meanwhile are marked offline. `clock.advance` alone is a server that was
   * away that long.
   */
  passTime(ms: number, stepMs?: number): Promise<void>;
  /**
   * Resolves once this process has heard every signal the database sent before the call (the
   * hint an event's commit sends in its `events` signal, migration 0043): a marker of its own
   * is sent after them, and notifications reach a listener in commit order. On PostgreSQL the
   * listener hears a commit's signals a moment after the response that committed it.
   */
  signalsHeard(): Promise<void>;
  /** inject with the JSON content type and, when given, a session cookie. */
  request(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  limiter?: RateLimiter;
  /** Extra routes for a test, added before the app is ready. */
  extend?: (app: FastifyInstance) => void;
  /** Sees every route as the app registers it. */
  onRoute?: (route: RouteOptions) => void;
  /** A built web app to serve (the system test drives it in Chromium); none by default. */
  webDir?: string | null;
  /**
   * Another test app's database: this app is a second server process on it (closing this
   * app leaves the database open). A fresh database of its own by default.
   */
  database?: Database;
  /** Where the manual clock starts: the real time by default. */
  clockStart?: Date;
  /** Answers for host names instead of DNS (a name that resolves to loopback, say). */
  resolve?: Resolve;
}

/** A POST of `body` as it stands (not encoded by inject), sent as `contentType` (JSON by default). */
export function postRaw(
  t: Pick<TestApp, 'request'>,
  url: string,
  body: string,
  contentType = 'application/json',
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url,
    payload: body,
    headers: { 'content-type': contentType },
  });
}

export async function createTestApp(overrides: TestAppOptions = {}): Promise<TestApp> {
  const database = overrides.database ?? (await openTestDatabase());
  const clock = new ManualClock(overrides.clockStart ?? new Date());
  const mailer = new CapturingMailer();
  const limiter = overrides.limiter ?? new MemoryRateLimiter(clock);
  // Factories write straight to the database, so tests read uncached unless they ask.
  const env = parseEnv({ NODE_ENV: 'test', READ_CACHE_TTL_MS: '0', ...overrides.env });
  const app = await createApp({
    env,
    database,
    clock,
    mailer,
    limiter,
    logger: false,
    webDir: overrides.webDir ?? null,
    ...(overrides.onRoute ? { onRoute: overrides.onRoute } : {}),
    ...(overrides.resolve ? { resolve: overrides.resolve } : {}),
  });
  overrides.extend?.(app);
  await app.ready();

  return {
    app,
    database,
    clock,
    mailer,
    limiter,
    async signIn(input) {
      const user = await database.db.transaction((tx) => createUser(tx, input));
      const token = randomToken();
      await sessionsRepo.insert(database.db, {
        tokenHash: hashSessionToken(token),
        userId: user.id,
        expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS),
        userAgent: 'vitest',
        ip: '127.0.0.1',
      });
      return { userId: user.id, token, cookie: `${SESSION_COOKIE}=${token}` };
    },
    async passTime(ms, stepMs = 10_000) {
      await app.deps.worker.runOnce(clock.now());
      for (let left = ms; left > 0; left -= stepMs) {
        clock.advance(Math.min(stepMs, left));
        await app.deps.worker.runOnce(clock.now());
      }
    },
    async signalsHeard() {
      const marker = `heard:${randomToken()}`;
      let off = () => {};
      const heard = new Promise<void>((resolve) => {
        off = app.deps.signals.on('events', (id) => {
          if (id === marker) resolve();
        });
      });
      try {
        await database.db.execute(
          sql`select pg_notify(${SIGNAL_CHANNEL}, ${encodeSignal('events', marker, 'test')})`,
        );
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          heard,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('signalsHeard: the listener did not hear its marker in 10 s')),
              10_000,
            );
          }),
        ]).finally(() => clearTimeout(timer));
      } finally {
        off();
      }
    },
    request({ cookie, headers, ...options }) {
      return app.inject({
        ...options,
        headers: { ...(cookie ? { cookie } : {}), ...headers },
      });
    },
    async close() {
      await app.close();
      if (!overrides.database) await database.close();
    },
  };
}
