import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { EventSubjectKind, EventType } from '../../../shared/contracts/events';

/**
 * The event log (docs/decisions/027, migration 0037): every change a renter or provider is
 * told of, written by the database's triggers (instances, ledger_entries, hosts) or by the app
 * in the change's own transaction (server/modules/events/repo.ts). `id` is the global order
 * and the cursor, read only up to rentgpu_event_bound() (nothing skipped); `subjectSeq` counts
 * per subject.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').$type<EventType>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    accountUserId: uuid('account_user_id').notNull(),
    subjectKind: text('subject_kind').$type<EventSubjectKind>().notNull(),
    subjectId: text('subject_id').notNull(),
    subjectSeq: bigint('subject_seq', { mode: 'number' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index('events_account_idx').on(t.accountUserId, t.id),
    index('events_subject_idx').on(t.subjectKind, t.subjectId, t.id),
  ],
);

/** Durable readers' cursors (mail, webhooks): advanced with what the reader did. */
export const eventReaders = pgTable('event_readers', {
  name: text('name').primaryKey(),
  lastId: bigint('last_id', { mode: 'bigint' }).notNull().default(sql`0`),
  /** A process reading for it holds it until then (its effects are at least once). */
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  /** Whose lease it is: a release or renewal by a process whose lease ran out changes nothing. */
  leaseToken: text('lease_token'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sequence numbers of subjects whose own rows keep none (spend caps, webhook endpoints). */
export const eventSubjects = pgTable(
  'event_subjects',
  {
    subjectKind: text('subject_kind').notNull(),
    subjectId: text('subject_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'event_subjects_pkey', columns: [t.subjectKind, t.subjectId] })],
);
