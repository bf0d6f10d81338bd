import { z } from 'zod';
import { TEXT_LIMITS } from './limits';

/** Texts of the newsletter sign-up, word for word (docs/rules.md, Screens and texts). */
export const NEWSLETTER_TEXT = {
  emailRequiredTitle: 'Email Required',
  emailRequired: 'Please enter your email address.',
  invalidEmail: 'Please enter a valid email address',
  successTitle: 'Successfully Subscribed!',
  success: "We'll e-mail you when we publish a new article.",
  failedTitle: 'Subscription Failed',
  failed: 'Please try again later.',
  doneTitle: "You're all set!",
} as const;

/** Where on the site a subscription came from; the blog page sends 'blog'. */
export const NEWSLETTER_SOURCES = ['blog', 'blog-post', 'documentation', 'help-center'] as const;

export const subscribeNewsletterBody = z.object({
  email: z
    .string({ message: NEWSLETTER_TEXT.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, { message: NEWSLETTER_TEXT.emailRequired })
    .max(TEXT_LIMITS.email, { message: NEWSLETTER_TEXT.invalidEmail })
    .pipe(z.email({ message: NEWSLETTER_TEXT.invalidEmail })),
  subscriptionSource: z.enum(NEWSLETTER_SOURCES).default('blog'),
});
export type SubscribeNewsletterBody = z.input<typeof subscribeNewsletterBody>;

/** The same answer whether the address was new or already subscribed. */
export const subscribeNewsletterResponse = z.object({
  message: z.string(),
  email: z.string(),
});
export type SubscribeNewsletterResponse = z.infer<typeof subscribeNewsletterResponse>;
