import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ProviderApplication } from '../../../shared/contracts/provider-application';
import { users } from './accounts';
import { createdAt } from './columns';
import { providers } from './marketplace';

/**
 * Applications to become a provider (issue 10): pending until an admin approves (which
 * creates the provider profile) or rejects them with a reason. One open application per user.
 */
export const providerApplications = pgTable(
  'provider_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    /** The whole application as the contract parsed it. */
    application: jsonb('application').$type<ProviderApplication>().notNull(),
    rejectionReason: text('rejection_reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    providerId: integer('provider_id').references(() => providers.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('provider_applications_one_open_key')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('provider_applications_user_idx').on(t.userId, t.createdAt),
    check(
      'provider_applications_status_check',
      sql`${t.status} in ('pending', 'approved', 'rejected')`,
    ),
    check(
      'provider_applications_reason_check',
      sql`${t.status} <> 'rejected' or ${t.rejectionReason} is not null`,
    ),
  ],
);

export type ProviderApplicationRow = typeof providerApplications.$inferSelect;
