import { OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_TTL_MS } from '../../../shared/constants';
import type { Conn, Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomDigits, safeEqualHex, sha256 } from '../../lib/crypto';
import { AppError, invalidOtp, otpExpired, rateLimited } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { type CodeScope, otpRepo } from './otp-repo';

/** Limits on asking for and trying codes (docs/decisions/003-sessions-and-sign-in.md). */
export const AUTH_LIMITS = {
  sendPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  sendPerIp: { limit: 20, windowMs: 60 * 60_000 },
  verifyPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /**
   * Tries of codes for one address (sign-in) or one user (e-mail change), from anywhere:
   * fewer than the 5 codes an hour × 5 tries each that the other limits would leave.
   */
  verifyPerTarget: { limit: 10, windowMs: 60 * 60_000 },
  /** E-mail change codes one signed-in user may ask for, whatever the addresses. */
  sendPerUser: { limit: 5, windowMs: 60 * 60_000 },
} as const;

type Rule = { limit: number; windowMs: number };

/** Counts one hit against a rule; 429 when the rule is exceeded. */
export async function enforce(limiter: RateLimiter, key: string, rule: Rule) {
  const decision = await limiter.hit(key, rule.limit, rule.windowMs);
  if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
}

/** The hash binds the code to its purpose, its address and (for a change) its user. */
function hashCode(scope: CodeScope, code: string): string {
  return scope.purpose === 'sign-in'
    ? sha256(`otp:${scope.email}:${code}`)
    : sha256(`otp:email-change:${scope.userId}:${scope.email}:${code}`);
}

/**
 * One-time codes for every purpose, with the same rules: six digits, only a hash stored,
 * 10 minutes, single use, 5 wrong tries retire a code, asking and trying are rate-limited.
 */
export function createCodes(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  /** Overrides AUTH_LIMITS.sendPerIp's count (CODES_PER_IP_PER_HOUR). */
  codesPerIpPerHour?: number;
  /** Overrides AUTH_LIMITS.verifyPerIp's count (CODE_TRIES_PER_IP_PER_15_MIN). */
  triesPerIpPer15Min?: number;
}) {
  const { db, clock, limiter } = deps;
  const sendPerIp = {
    ...AUTH_LIMITS.sendPerIp,
    limit: deps.codesPerIpPerHour ?? AUTH_LIMITS.sendPerIp.limit,
  };
  const verifyPerIp = {
    ...AUTH_LIMITS.verifyPerIp,
    limit: deps.triesPerIpPer15Min ?? AUTH_LIMITS.verifyPerIp.limit,
  };
  return {
    /** Refuses (429) before anything is stored when the asker or the address asked too often. */
    async limitSend(scope: CodeScope, ip: string): Promise<void> {
      await enforce(limiter, `otp-send:ip:${ip}`, sendPerIp);
      // Shared by both purposes: it protects the inbox that receives the codes.
      await enforce(limiter, `otp-send:email:${scope.email}`, AUTH_LIMITS.sendPerEmail);
      if (scope.purpose === 'email-change')
        await enforce(limiter, `otp-send:user:${scope.userId}`, AUTH_LIMITS.sendPerUser);
    },

    /** Stores a new code (retiring the owner's open ones) and returns it for mailing. */
    async store(conn: Conn, scope: CodeScope, ip: string): Promise<string> {
      const code = randomDigits(OTP_LENGTH);
      const now = clock.now();
      await otpRepo.replace(conn, scope, {
        codeHash: hashCode(scope, code),
        expiresAt: new Date(now.getTime() + OTP_TTL_MS),
        ip,
        now,
      });
      return code;
    },

    retireAll(conn: Conn, scope: CodeScope): Promise<void> {
      return otpRepo.retireAll(conn, scope, clock.now());
    },

    /**
     * Uses the code up when it is right; otherwise counts the try and throws. Every try
     * counts per address and per target (the e-mail address, or the user changing theirs);
     * over either limit it is refused (429) before the code is looked at.
     */
    async check(scope: CodeScope, otp: string, ip: string): Promise<void> {
      await enforce(limiter, `otp-verify:ip:${ip}`, verifyPerIp);
      const target = scope.purpose === 'sign-in' ? `email:${scope.email}` : `user:${scope.userId}`;
      await enforce(limiter, `otp-verify:${target}`, AUTH_LIMITS.verifyPerTarget);
      const now = clock.now();
      const open = await otpRepo.findLatestOpen(db, scope);
      if (!open || open.expiresAt <= now) throw otpExpired();
      if (!safeEqualHex(open.codeHash, hashCode(scope, otp))) {
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
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
