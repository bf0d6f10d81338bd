import { z } from 'zod';
import { TEXT_LIMITS } from './limits';

/** Texts of the contact form, word for word (docs/rules.md, Screens and texts). */
export const CONTACT_TEXT = {
  sending: 'Sending...',
  send: 'Send Message',
  successTitle: 'Message Sent Successfully',
  success: "We'll get back to you within 24 hours.",
  failedTitle: 'Error',
  failed: 'Failed to send message. Please try again.',
  nameRequired: 'Please enter your name.',
  emailInvalid: 'Please enter a valid email address',
  subjectRequired: 'Please enter a subject.',
  messageRequired: 'Please enter your message.',
} as const;

export const CONTACT_LIMITS = {
  name: TEXT_LIMITS.contactName,
  email: TEXT_LIMITS.email,
  subject: TEXT_LIMITS.contactSubject,
  message: TEXT_LIMITS.contactMessage,
} as const;

export const CONTACT_CATEGORIES = [
  'general',
  'technical',
  'billing',
  'sales',
  'partnership',
  'bug',
  'feature',
] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

export const CONTACT_CATEGORY_LABELS: Record<ContactCategory, string> = {
  general: 'General Inquiry',
  technical: 'Technical Support',
  billing: 'Billing & Payments',
  sales: 'Sales',
  partnership: 'Partnership',
  bug: 'Bug Report',
  feature: 'Feature Request',
};

const required = (message: string, max: number) =>
  z
    .string({ message })
    .trim()
    .min(1, { message })
    .max(max, { message: `Please keep this under ${max} characters.` });

export const sendContactMessageBody = z.object({
  name: required(CONTACT_TEXT.nameRequired, CONTACT_LIMITS.name),
  email: z
    .string({ message: CONTACT_TEXT.emailInvalid })
    .trim()
    .toLowerCase()
    .max(CONTACT_LIMITS.email, { message: CONTACT_TEXT.emailInvalid })
    .pipe(z.email({ message: CONTACT_TEXT.emailInvalid })),
  subject: required(CONTACT_TEXT.subjectRequired, CONTACT_LIMITS.subject),
  message: required(CONTACT_TEXT.messageRequired, CONTACT_LIMITS.message),
  category: z.enum(CONTACT_CATEGORIES).default('general'),
});
export type SendContactMessageBody = z.input<typeof sendContactMessageBody>;

export const sendContactMessageResponse = z.object({ id: z.string(), message: z.string() });
export type SendContactMessageResponse = z.infer<typeof sendContactMessageResponse>;

/** A stored message as an admin reads it (GET /api/admin/contact-messages). */
export const contactMessageView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  category: z.enum(CONTACT_CATEGORIES),
  userId: z.string().nullable(),
  emailedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ContactMessageView = z.infer<typeof contactMessageView>;

export const listContactMessagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const listContactMessagesResponse = z.object({ messages: z.array(contactMessageView) });
export type ListContactMessagesResponse = z.infer<typeof listContactMessagesResponse>;
