import { CONTACT_EMAILS } from '../../../shared/content/company';
import { CONTACT_CATEGORY_LABELS, type ContactCategory } from '../../../shared/contracts/contact';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { rateLimited } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { RateLimiter } from '../../lib/rate-limit';
import { type ContactMessageRow, contactRepo } from './repo';

/** A person writes a handful of messages, not dozens; the browser tests stay well under this. */
export const CONTACT_LIMITS = {
  perIp: { limit: 5, windowMs: 10 * 60_000 },
} as const;

export interface ContactDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  mailer: Mailer;
  /** Mail goes out only when a real SMTP server is configured (SMTP_URL). */
  mailEnabled: boolean;
  log: { error(obj: unknown, msg: string): void };
}

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  category: ContactCategory;
}

export interface ContactSender {
  userId: string | null;
  ip: string;
}

/** One line, so a subject can never add a mail header. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

export function supportMail(row: ContactMessageRow, input: ContactInput) {
  return {
    to: CONTACT_EMAILS.support,
    replyTo: input.email,
    subject: `[Contact: ${CONTACT_CATEGORY_LABELS[input.category]}] ${oneLine(input.subject)}`,
    text: [
      `From: ${oneLine(input.name)} <${input.email}>`,
      `Category: ${CONTACT_CATEGORY_LABELS[input.category]}`,
      `Signed-in user: ${row.userId ?? 'no'}`,
      `Message id: ${row.id}`,
      `Received: ${row.createdAt.toISOString()}`,
      '',
      input.message,
    ].join('\n'),
  };
}

export function createContactService(deps: ContactDeps) {
  const { db, clock, limiter, mailer } = deps;

  return {
    /**
     * Stores the message first, so it is never lost; then e-mails it to support when SMTP
     * is configured. A mail failure is logged and leaves emailed_at empty for a retry.
     */
    async send(input: ContactInput, sender: ContactSender): Promise<ContactMessageRow> {
      const { limit, windowMs } = CONTACT_LIMITS.perIp;
      const decision = await limiter.hit(`contact:ip:${sender.ip}`, limit, windowMs);
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);

      // Received at the app's clock, as the admin list orders it: the database's `now()` on
      // the embedded database can give two messages a millisecond apart the same time.
      const row = await contactRepo.insert(db, { ...input, ...sender, createdAt: clock.now() });
      if (!deps.mailEnabled) return row;
      try {
        await mailer.send(supportMail(row, input));
        const at = clock.now();
        await contactRepo.markEmailed(db, row.id, at);
        return { ...row, emailedAt: at };
      } catch (error) {
        deps.log.error({ err: error, contactMessageId: row.id }, 'contact message e-mail failed');
        return row;
      }
    },

    list(limit: number): Promise<ContactMessageRow[]> {
      return contactRepo.listRecent(db, limit);
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
