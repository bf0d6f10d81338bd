import {
  DEMO_USER_EMAIL,
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MS,
} from '../../../shared/constants';
import { SESSION_TIMEOUT_MS } from '../../../shared/contracts/settings';
import { LOGIN_TEXT } from '../../../shared/rules/login-input';
import type { Conn, Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomDigits, randomToken, safeEqualHex, sha256 } from '../../lib/crypto';
import {
  AppError,
  invalidOtp,
  otpExpired,
  rateLimited,
  serviceUnavailable,
} from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { RateLimiter } from '../../lib/rate-limit';
import { usersService } from '../users/service';
import { otpRepo } from './otp-repo';
import { sessionsRepo } from './sessions-repo';

/** The lifetime of a session when the user has not chosen one (settings default, 24h). */
export const SESSION_TTL_MS = SESSION_TIMEOUT_MS['24h'];

/** Limits on asking for and trying codes (docs/decisions/003-sessions-and-sign-in.md). */
export const AUTH_LIMITS = {
  sendPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  sendPerIp: { limit: 20, windowMs: 60 * 60_000 },
  verifyPerIp: { limit: 30, windowMs: 15 * 60_000 },
} as const;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  log: { error(obj: unknown, msg: string): void };
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

function hashCode(email: string, code: string): string {
  return sha256(`otp:${email}:${code}`);
}

export function hashSessionToken(token: string): string {
  return sha256(`session:${token}`);
}

async function enforce(
  limiter: RateLimiter,
  key: string,
  rule: { limit: number; windowMs: number },
) {
  const decision = await limiter.hit(key, rule.limit, rule.windowMs);
  if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
}

export function createAuthService(deps: AuthDeps) {
  const { db, clock, mailer, limiter } = deps;

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
      });
    });
    return { token, userId, expiresAt };
  }

  return {
    /** Same answer whether or not the address has an account. */
    async sendCode(email: string, client: ClientInfo): Promise<string> {
      await enforce(limiter, `otp-send:ip:${client.ip}`, AUTH_LIMITS.sendPerIp);
      await enforce(limiter, `otp-send:email:${email}`, AUTH_LIMITS.sendPerEmail);
      const code = randomDigits(OTP_LENGTH);
      const now = clock.now();
      await otpRepo.replace(db, {
        email,
        codeHash: hashCode(email, code),
        expiresAt: new Date(now.getTime() + OTP_TTL_MS),
        ip: client.ip,
        now,
      });
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
    ): Promise<IssuedSession> {
      await enforce(limiter, `otp-verify:ip:${client.ip}`, AUTH_LIMITS.verifyPerIp);
      const now = clock.now();
      const open = await otpRepo.findLatestOpen(db, email);
      if (!open || open.expiresAt <= now) throw otpExpired();
      if (!safeEqualHex(open.codeHash, hashCode(email, otp))) {
        const attempts = await otpRepo.recordFailure(db, open.id, OTP_MAX_ATTEMPTS, now);
        const left = Math.max(0, OTP_MAX_ATTEMPTS - attempts);
        if (left === 0) {
          throw new AppError(400, 'OTP_EXPIRED', 'Too many wrong codes. Request a new code.', {
            attemptsLeft: 0,
          });
        }
        throw invalidOtp({ attemptsLeft: left });
      }
      if (!(await otpRepo.consume(db, open.id, now))) throw otpExpired();
      const user = await db.transaction((tx) => usersService.findOrCreateByEmail(tx, email));
      return issueSession(user.id, client, replacingToken);
    },

    async demoSignIn(client: ClientInfo, replacingToken?: string): Promise<IssuedSession> {
      const userId = await usersService.findIdByEmail(db, DEMO_USER_EMAIL);
      if (!userId)
        throw new AppError(
          503,
          'DEMO_UNAVAILABLE',
          'The demo account is not available on this server.',
        );
      return issueSession(userId, client, replacingToken);
    },

    async sessionFor(token: string) {
      return sessionsRepo.findLive(db, hashSessionToken(token), clock.now());
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
