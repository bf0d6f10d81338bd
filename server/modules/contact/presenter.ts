import {
  CONTACT_CATEGORIES,
  type ContactCategory,
  type ContactMessageView,
} from '../../../shared/contracts/contact';
import type { ContactMessageRow } from './repo';

const isCategory = (value: string): value is ContactCategory =>
  (CONTACT_CATEGORIES as readonly string[]).includes(value);

export function presentContactMessage(row: ContactMessageRow): ContactMessageView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    category: isCategory(row.category) ? row.category : 'general',
    userId: row.userId,
    emailedAt: row.emailedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
