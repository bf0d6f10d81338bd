import { SESSION_TIMEOUT_MS } from '../../../shared/contracts/settings';
import { LOGIN_TEXT } from '../../../shared/rules/login-input';
import type { Conn, Db } from '../../db/client';
import { batchedLookup } from '../../lib/batched-lookup';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError, serviceUnavailable } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { RateLimiter } from '../../lib/rate-limit';
import type { DemoService } from '../demo/service';
import { usersService } from '../users/service';
import { createCodes, enforce } from './codes';
import { createEmailChange } from './email-change';
import { sessionsRepo } from './sessions-repo';
import { createTwoFactor } from './two-factor';

export { AUTH_LIMITS } from './codes';

/** The lifetime of a session when the user has not chosen one (settings default, 24h). */
export const SESSION_TTL_MS = SESSION_TIMEOUT_MS['24h'];

/** A session's last_seen_at moves at most this often (one write per session per period). */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  log: { error(obj: unknown, msg: string): void };
  /** Demo Login: null when the server runs without the demo world (SEED_DEMO_DATA=false). */
  demo: DemoService | null;
  /** New demo accounts per client IP and hour. */
  demoLoginsPerHour: number;
  /** Sign-in and e-mail change codes per client IP and hour (default AUTH_LIMITS.sendPerIp). */
  codesPerIpPerHour?: number;
  /** Code tries per client IP and 15 minutes (default AUTH_LIMITS.verifyPerIp). */
  triesPerIpPer15Min?: number;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export interface IssuedSession {
  token: string;
  userId: string;
  expiresAt: Date;
}

/** A right e-mail code: a session, or a challenge when the account has two-factor on. */
export type SignInStep =
  | { kind: 'session'; session: IssuedSession }
  | { kind: 'two-factor'; challenge: string };

export function hashSessionToken(token: string): string {
  return sha256(`session:${token}`);
}

export function createAuthService(deps: AuthDeps) {
  const { db, clock, mailer, limiter, demo } = deps;
  const codes = createCodes({
    db,
    clock,
    limiter,
    codesPerIpPerHour: deps.codesPerIpPerHour,
    triesPerIpPer15Min: deps.triesPerIpPer15Min,
  });
  const twoFactor = createTwoFactor({
    db,
    clock,
    limiter,
    triesPerIpPer15Min: deps.triesPerIpPer15Min,
  });

  type LiveSession = Awaited<ReturnType<typeof sessionsRepo.findLive>> & {};
  /** A batch of tokens' live sessions, and their last use noted (one statement each). */
  const liveSession = batchedLookup(async (tokenHashes: readonly string[]) => {
    const now = clock.now();
    const rows = await sessionsRepo.findLiveMany(db, tokenHashes, now);
    const stale = rows.filter(
      (r) => now.getTime() - r.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS,
    );
    await sessionsRepo.touch(
      db,
      stale.map((r) => r.sessionId),
      now,
    );
    return new Map<string, LiveSession>(rows.map(({ tokenHash, ...live }) => [tokenHash, live]));
  });

  async function issueSession(
    userId: string,
    client: ClientInfo,
    replacingToken?: string,
  ): Promise<IssuedSession> {
    const token = randomToken();
    const { security } = await usersService.getSettings(db, userId);
    const expiresAt = new Date(clock.now().getTime() + SESSION_TIMEOUT_MS[security.sessionTimeout]);
    await db.transaction(async (tx) => {
      // A new sign-in replaces the session the browser held (no session fixation).
      if (replacingToken)
        await sessionsRepo.deleteByTokenHash(tx, hashSessionToken(replacingToken));
      await sessionsRepo.insert(tx, {
        tokenHash: hashSessionToken(token),
        userId,
        expiresAt,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        ip: client.ip,
        lastSeenAt: clock.now(),
      });
    });
    return { token, userId, expiresAt };
  }

  return {
    /** Same answer whether or not the address has an account. */
    async sendCode(email: string, client: ClientInfo): Promise<string> {
      const scope = { purpose: 'sign-in', email } as const;
      await codes.limitSend(scope, client.ip);
      const code = await codes.store(db, scope, client.ip);
      try {
        await mailer.send({
          to: email,
          subject: `Your RentGPU sign-in code: ${code}`,
          text: `Your RentGPU sign-in code is ${code}\n\nIt is valid for 10 minutes and can be used once. If you did not ask for it, ignore this e-mail.`,
          code,
        });
      } catch (error) {
        deps.log.error({ err: error }, 'sign-in code e-mail failed');
        throw serviceUnavailable('We could not send the code. Please try again in a minute.');
      }
      return LOGIN_TEXT.otpSent(email);
    },

    async verifyCode(
      email: string,
      otp: string,
      client: ClientInfo,
      replacingToken?: string,
    ): Promise<SignInStep> {
      await codes.check({ purpose: 'sign-in', email }, otp, client.ip);
      const user = await db.transaction((tx) => usersService.findOrCreateByEmail(tx, email));
      // The session waits for the second factor (docs/decisions/023-two-factor-sign-in.md).
      if (!user.created && (await twoFactor.isEnabled(user.id)))
        return { kind: 'two-factor', challenge: await twoFactor.challenge(user.id) };
      return { kind: 'session', session: await issueSession(user.id, client, replacingToken) };
    },

    /** The second step of a sign-in with two-factor on: an app code or a recovery code. */
    async verifyTwoFactor(
      challenge: string,
      code: string,
      client: ClientInfo,
      replacingToken?: string,
    ): Promise<IssuedSession> {
      const userId = await twoFactor.answer(challenge, code, client.ip);
      return issueSession(userId, client, replacingToken);
    },

    /** Setting up and turning off the second factor (Settings → Security). */
    twoFactor,

    /**
     * Browser tests' sign-in (TEST_SESSION_SECRET, never production): the account and session a
     * verified code would give, without the e-mail round trip.
     */
    async testSignIn(email: string, client: ClientInfo): Promise<IssuedSession> {
      const user = await db.transaction((tx) => usersService.findOrCreateByEmail(tx, email));
      return issueSession(user.id, client);
    },

    /**
     * Demo Login: a fresh demo account of the visitor's own (docs/decisions/
     * 010-a-demo-account-per-visitor.md), at most demoLoginsPerHour per IP. A browser that is
     * already signed into its own demo account keeps it and gets a new session.
     */
    async demoSignIn(client: ClientInfo, replacingToken?: string): Promise<IssuedSession> {
      if (!demo)
        throw new AppError(
          503,
          'DEMO_UNAVAILABLE',
          'The demo account is not available on this server.',
        );
      if (replacingToken) {
        const live = await sessionsRepo.findLive(db, hashSessionToken(replacingToken), clock.now());
        if (live && (await demo.isVisitorAccount(db, live.userId)))
          return issueSession(live.userId, client, replacingToken);
      }
      await enforce(limiter, `demo-login:ip:${client.ip}`, {
        limit: deps.demoLoginsPerHour,
        windowMs: 60 * 60_000,
      });
      return issueSession(await demo.createVisitor(), client, replacingToken);
    },

    /** Proof of a new sign-in address (PATCH /api/users/:id and the /email routes). */
    emailChange: createEmailChange({ db, mailer, codes, log: deps.log }),

    /**
     * The live session of a token; notes when it was last used (at most every 5 minutes).
     * Requests that arrive together are looked up together, in one statement.
     */
    sessionFor(token: string) {
      return liveSession(hashSessionToken(token));
    },

    async signOut(token: string): Promise<void> {
      await sessionsRepo.deleteByTokenHash(db, hashSessionToken(token));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Session lifetimes for other modules (settings, account closing), inside their transaction. */
export const sessionsService = {
  /**
   * A new session timeout: the current session lives that long from now, and the user's
   * other sessions end by then at the latest (a shorter timeout tightens every device).
   */
  async applyTimeout(
    conn: Conn,
    userId: string,
    currentSessionId: string,
    ttlMs: number,
    now: Date,
  ): Promise<Date> {
    const expiresAt = new Date(now.getTime() + ttlMs);
    await sessionsRepo.setExpiry(conn, currentSessionId, expiresAt);
    await sessionsRepo.capOthers(conn, userId, currentSessionId, expiresAt);
    return expiresAt;
  },

  endAllForUser(conn: Conn, userId: string) {
    return sessionsRepo.deleteByUser(conn, userId);
  },
};
