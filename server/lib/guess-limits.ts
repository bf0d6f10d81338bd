import { rateLimited } from './errors';
import type { RateDecision, RateLimiter } from './rate-limit';

export interface LimitRule {
  limit: number;
  windowMs: number;
}

/**
 * How many failed tries one kind of secret check allows in a window: from one client address,
 * and against one target (the account, e-mail address or key being guessed; `null` where a
 * wrong secret names none, see GUESS_LIMITS).
 */
export interface GuessRule {
  /** Names the counters: `guess:<name>:ip:<address>` and `guess:<name>:target:<target>`. */
  name: string;
  perAddress: LimitRule;
  perTarget: LimitRule | null;
}

const MINUTES_15 = 15 * 60_000;

/**
 * The checks of a secret that are not sign-in or two-factor codes (those are in
 * modules/auth/codes.ts and two-factor.ts, which count every try). docs/architecture.md,
 * "Limits where guessing is possible", lists every check and why it has the limit it has.
 */
export const GUESS_LIMITS = {
  /**
   * Agent enrolment tokens (POST /api/v1/agents/enroll). A random token names no host, so the
   * target is every open token at once: the whole server's failed enrolments.
   */
  enrolment: {
    name: 'enrol',
    perAddress: { limit: 10, windowMs: MINUTES_15 },
    perTarget: { limit: 300, windowMs: MINUTES_15 },
  },
  /**
   * An agent's credential (heartbeat, wait, report): hosts use theirs every few seconds, so only
   * failures count. A wrong credential names no host; per address only.
   */
  agentCredential: {
    name: 'agent',
    perAddress: { limit: 30, windowMs: MINUTES_15 },
    perTarget: null,
  },
  /** A wrong API key on /api/v1: per address, and per key prefix (the part a key list shows). */
  apiKey: {
    name: 'api-key',
    perAddress: { limit: 30, windowMs: MINUTES_15 },
    perTarget: { limit: 30, windowMs: MINUTES_15 },
  },
  /** The browser tests' sign-in secret (never in production): one secret, one target. */
  testSession: {
    name: 'test-session',
    perAddress: { limit: 10, windowMs: MINUTES_15 },
    perTarget: { limit: 30, windowMs: MINUTES_15 },
  },
  /** A PayPal webhook whose signature PayPal does not confirm (each check is a call to PayPal). */
  paypalWebhook: {
    name: 'paypal-webhook',
    perAddress: { limit: 60, windowMs: MINUTES_15 },
    perTarget: null,
  },
} as const satisfies Record<string, GuessRule>;

/** Who is trying: the client's address, and what it tries to get into (see GuessRule). */
export interface Guesser {
  ip: string;
  target?: string | null;
}

const tooManyTries = (refused: RateDecision) =>
  rateLimited(refused.retryAfterSeconds, 'Too many wrong tries. Please try again later.');

/**
 * Limits on guessing a secret, counted in the app's rate limiter (one count for every server
 * process: lib/rate-limit.ts), answered 429 RATE_LIMITED with Retry-After. Two ways to count:
 * - `attempt`, where a right secret is rare (enrolment): the try is counted before the check
 *   and refused while the address or the target has no tries left, right or wrong; a right one
 *   is given back, so only failures use the limit up, and concurrent tries never pass more;
 * - `failed`, where the secret is right nearly every time and is 256 random bits (an agent's
 *   credential, an API key): nothing is counted or read for a right one, a wrong one counts,
 *   and once over the limit a wrong one is answered 429 instead of its 401.
 */
export function createGuessLimits(limiter: RateLimiter) {
  function counters(rule: GuessRule, who: Guesser): [string, LimitRule][] {
    const keys: [string, LimitRule][] = [[`guess:${rule.name}:ip:${who.ip}`, rule.perAddress]];
    if (rule.perTarget && who.target)
      keys.push([`guess:${rule.name}:target:${who.target}`, rule.perTarget]);
    return keys;
  }

  /**
   * Counts a try, the address first: an address over its own limit no longer counts against
   * the target, so one address cannot use a target's tries up (nor every address's, where the
   * target is all of them). The refusal, if any.
   */
  async function count(keys: [string, LimitRule][]): Promise<RateDecision | null> {
    for (const [key, rule] of keys) {
      const decision = await limiter.hit(key, rule.limit, rule.windowMs);
      if (!decision.allowed) return decision;
    }
    return null;
  }

  return {
    async attempt<T>(rule: GuessRule, who: Guesser, check: () => Promise<T>): Promise<T> {
      const keys = counters(rule, who);
      const refused = await count(keys);
      if (refused) throw tooManyTries(refused);
      const result = await check();
      // The check passed and what it did stands: a lost give-back only counts this try.
      await Promise.all(keys.map(([key]) => limiter.giveBack(key))).catch(() => {});
      return result;
    },

    /** Counts a failed check (`failure`, thrown as it is while under the limit). */
    async failed(rule: GuessRule, who: Guesser, failure: unknown): Promise<never> {
      const refused = await count(counters(rule, who));
      if (refused) throw tooManyTries(refused);
      throw failure;
    },
  };
}

export type GuessLimits = ReturnType<typeof createGuessLimits>;
