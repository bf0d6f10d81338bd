import type { SQL } from 'drizzle-orm';
import type { EventSubjectKind, EventType } from '../../../shared/contracts/events';
import type { Tx } from '../../db/client';

/** Which events a statement of the log reads (eventsRepo.list, listUpTo). */
export interface EventFilter {
  after: bigint;
  limit: number;
  /** Whose events (the API); none: everyone's (the readers). */
  accountUserId?: string;
  /** Exact types, and subject kinds whose every type is wanted (`instance.*`). */
  types?: string[];
  subjectKinds?: string[];
  subject?: { kind: string; id: string };
  /** Only the events of the accounts this subquery names (a reader's `wants`). */
  accountsIn?: SQL;
}

/** One row of the `events` table (docs/decisions/027), as readers get it. */
export interface StoredEvent {
  id: bigint;
  type: EventType;
  at: Date;
  /** Whose it is: the renter, or the provider's user for a host's or earnings' events. */
  accountUserId: string;
  subjectKind: EventSubjectKind;
  subjectId: string;
  subjectSeq: number;
  data: Record<string, unknown>;
}

/**
 * A durable reader of the log: one process at a time reads for it (a lease on its cursor in
 * `event_readers`). `effect` runs first, outside any transaction (e-mail: what leaves the
 * database); `handle` runs inside the transaction that advances the cursor, so what it writes
 * commits with it (webhook deliveries). A failure of either moves nothing: the same events
 * are read again (at least once, never lost); effects are keyed by event id where they can be.
 */
export interface DurableEventReader {
  name: string;
  /**
   * The events it acts on, as the log's statement filters them (types, subject kinds, whose):
   * the others are never read for it, and its cursor moves past them. None: every event.
   */
  wants?: Pick<EventFilter, 'types' | 'subjectKinds' | 'accountsIn'>;
  effect?(events: StoredEvent[]): Promise<void>;
  handle?(tx: Tx, events: StoredEvent[]): Promise<void>;
  /** After `handle`'s transaction committed, in this process: a hint (wake what sends it on). */
  committed?(events: StoredEvent[]): void;
}

export type { EventSubjectKind, EventType };
