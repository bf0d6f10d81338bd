import type { Db } from '../../db/client';
import { rateLimited } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { newsletterRepo } from './repo';

/** Generous enough for a shared office address, tight enough to stop a script. */
export const NEWSLETTER_LIMITS = {
  perIp: { limit: 10, windowMs: 60 * 60_000 },
} as const;

export interface NewsletterDeps {
  db: Db;
  limiter: RateLimiter;
}

export function createNewsletterService({ db, limiter }: NewsletterDeps) {
  return {
    /**
     * Subscribes an address. Subscribing twice is not an error and adds no second row;
     * the caller cannot tell the two apart, so the form reveals nothing about who reads us.
     */
    async subscribe(email: string, source: string, ip: string): Promise<{ created: boolean }> {
      const { limit, windowMs } = NEWSLETTER_LIMITS.perIp;
      const decision = await limiter.hit(`newsletter:ip:${ip}`, limit, windowMs);
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
      return { created: await newsletterRepo.subscribe(db, email, source) };
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
