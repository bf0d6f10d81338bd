import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Conn, Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError, conflict, demoAccountLocked } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { usersService } from '../users/service';
import { AUTH_LIMITS, enforce } from './codes';
import { twoFactorRepo } from './two-factor-repo';

/** docs/decisions/023-two-factor-sign-in.md */
export const TWO_FACTOR = {
  issuer: 'RentGPU',
  periodSeconds: 30,
  /** Steps either side of now a code is accepted for (clock drift). */
  window: 1,
  recoveryCodes: 10,
  challengeTtlMs: 5 * 60_000,
  challengeAttempts: 5,
  perUser: { limit: 10, windowMs: 15 * 60_000 },
} as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 12 base32 characters (60 bits) shown as xxxx-xxxx-xxxx. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(12)].map((b) => BASE32[b % 32]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`.toLowerCase();
}

function hashRecoveryCode(userId: string, code: string): string {
  return sha256(`2fa-recovery:${userId}:${code.replace(/[\s-]/g, '').toUpperCase()}`);
}

function totpFor(secret: string, label: string) {
  return new TOTP({
    issuer: TWO_FACTOR.issuer,
    label,
    secret: Secret.fromBase32(secret),
    period: TWO_FACTOR.periodSeconds,
  });
}

const wrongCode = () =>
  new AppError(400, 'INVALID_OTP', 'That code is not right. Enter the current code from your app.');

const isAppCode = (code: string) => /^\d{6}$/.test(code);

export function createTwoFactor(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  triesPerIpPer15Min?: number;
}) {
  const { db, clock, limiter } = deps;
  const verifyPerIp = {
    ...AUTH_LIMITS.verifyPerIp,
    limit: deps.triesPerIpPer15Min ?? AUTH_LIMITS.verifyPerIp.limit,
  };

  /** The time step an app code is right for, or null. */
  function stepOf(secret: string, code: string): number | null {
    if (!isAppCode(code)) return null;
    const timestamp = clock.now().getTime();
    const delta = totpFor(secret, '').validate({
      token: code,
      timestamp,
      window: TWO_FACTOR.window,
    });
    if (delta === null) return null;
    return Math.floor(timestamp / 1000 / TWO_FACTOR.periodSeconds) + delta;
  }

  /**
   * Counts a try of a code: per address (the e-mail codes' counter) and per account. Every
   * try counts, right or wrong; over either limit it is refused (429) before it is checked.
   */
  async function countTry(userId: string, ip: string | null) {
    if (ip !== null) await enforce(limiter, `otp-verify:ip:${ip}`, verifyPerIp);
    await enforce(limiter, `2fa-verify:user:${userId}`, TWO_FACTOR.perUser);
  }

  /**
   * Uses up an app code (later step than any before) or a recovery code; throws when wrong.
   * `ip`: the try is counted per address here (null: the caller counted it already).
   */
  async function spendCode(
    conn: Conn,
    userId: string,
    secret: string,
    code: string,
    ip: string | null,
  ) {
    await countTry(userId, ip);
    const step = stepOf(secret, code);
    if (step !== null) {
      if (await twoFactorRepo.acceptStep(conn, userId, step)) return;
      throw new AppError(400, 'INVALID_OTP', 'This code was already used. Wait for the next one.');
    }
    if (!isAppCode(code)) {
      const hash = hashRecoveryCode(userId, code);
      if (await twoFactorRepo.spendRecoveryCode(conn, userId, hash, clock.now())) return;
    }
    throw wrongCode();
  }

  async function setEnabledSetting(conn: Conn, userId: string, enabled: boolean) {
    const settings = await usersService.getSettings(conn, userId);
    await usersService.saveSettings(conn, userId, {
      ...settings,
      security: { ...settings.security, twoFactorEnabled: enabled },
    });
  }

  async function enabledSecret(conn: Conn, userId: string): Promise<string | null> {
    const row = await twoFactorRepo.find(conn, userId);
    return row?.enabledAt ? row.secret : null;
  }

  return {
    isEnabled: async (userId: string) => (await enabledSecret(db, userId)) !== null,

    /** A new pending secret, shown this once (key, URI and QR code). */
    async setup(userId: string) {
      const user = await usersService.getProfile(db, userId);
      if (user.isDemo) throw demoAccountLocked('turn on two-factor sign-in', false);
      const secret = new Secret({ size: 20 }).base32;
      if (!(await twoFactorRepo.putPending(db, userId, secret)))
        throw conflict('Two-factor sign-in is already on. Turn it off first to set up a new app.');
      const uri = totpFor(secret, user.email).toString();
      const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1 });
      return { secret, otpauthUrl: uri, qrSvg };
    },

    /** Turns the pending secret on with a code from the app; answers the recovery codes. */
    async enable(userId: string, code: string, ip: string): Promise<string[]> {
      await countTry(userId, ip);
      const row = await twoFactorRepo.find(db, userId);
      if (!row) throw conflict('Start the setup first: choose Enable to get a QR code.');
      if (row.enabledAt) throw conflict('Two-factor sign-in is already on.');
      const step = stepOf(row.secret, code);
      if (step === null) throw wrongCode();
      const recovery = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
      await db.transaction(async (tx) => {
        if (!(await twoFactorRepo.enable(tx, userId, step, clock.now())))
          throw conflict('Two-factor sign-in is already on.');
        const hashes = recovery.map((c) => hashRecoveryCode(userId, c));
        await twoFactorRepo.replaceRecoveryCodes(tx, userId, hashes);
        await setEnabledSetting(tx, userId, true);
      });
      return recovery;
    },

    /** Turns two-factor off with a current app code or a recovery code. */
    async disable(userId: string, code: string, ip: string): Promise<void> {
      const secret = await enabledSecret(db, userId);
      if (!secret) throw conflict('Two-factor sign-in is not on.');
      await db.transaction(async (tx) => {
        await spendCode(tx, userId, secret, code, ip);
        await twoFactorRepo.remove(tx, userId);
        await setEnabledSetting(tx, userId, false);
      });
    },

    /** After a right e-mail code: a challenge to answer with the second factor. */
    async challenge(userId: string): Promise<string> {
      const token = randomToken();
      const expiresAt = new Date(clock.now().getTime() + TWO_FACTOR.challengeTtlMs);
      await twoFactorRepo.insertChallenge(db, userId, sha256(`2fa:${token}`), expiresAt);
      return token;
    },

    /** The user a challenge belongs to, once it is answered with a right code. */
    async answer(token: string, code: string, ip: string): Promise<string> {
      await enforce(limiter, `otp-verify:ip:${ip}`, verifyPerIp);
      const now = clock.now();
      const open = await twoFactorRepo.findOpenChallenge(db, sha256(`2fa:${token}`), now);
      if (!open)
        throw new AppError(
          400,
          'OTP_EXPIRED',
          'This sign-in has expired. Request a new e-mail code and sign in again.',
        );
      const secret = await enabledSecret(db, open.userId);
      try {
        if (secret) await spendCode(db, open.userId, secret, code, null);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'INVALID_OTP') throw error;
        const attempts = await twoFactorRepo.failChallenge(
          db,
          open.id,
          TWO_FACTOR.challengeAttempts,
          now,
        );
        const left = Math.max(0, TWO_FACTOR.challengeAttempts - attempts);
        if (left === 0)
          throw new AppError(
            400,
            'OTP_EXPIRED',
            'Too many wrong codes. Request a new e-mail code and sign in again.',
            { attemptsLeft: 0 },
          );
        throw new AppError(400, 'INVALID_OTP', error.message, { attemptsLeft: left });
      }
      if (!(await twoFactorRepo.consumeChallenge(db, open.id, now)))
        throw new AppError(400, 'OTP_EXPIRED', 'This sign-in was already completed.');
      return open.userId;
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
