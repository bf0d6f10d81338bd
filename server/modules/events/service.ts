import { setTimeout as sleep } from 'node:timers/promises';
import {
  EVENT_RETENTION_DAYS,
  EVENT_SUBJECT_KINDS,
  type EventPage,
  type EventView,
  eventIdOf,
  eventNumberOf,
  type ListEventsQuery,
} from '../../../shared/contracts/events';
import type { Conn, Db } from '../../db/client';
import type { Signals } from '../../lib/signals';
import { eventsRepo, type NewEvent } from './repo';
import type { StoredEvent } from './types';

/**
 * How another module writes what no row's trigger records (a cap's warning, a low balance, a
 * webhook's ping): one event, in the caller's transaction (docs/decisions/027).
 */
export const eventLog = {
  append: (conn: Conn, e: NewEvent): Promise<bigint> => eventsRepo.append(conn, e),
};

export function presentEvent(e: StoredEvent): EventView {
  return {
    id: eventIdOf(e.id),
    type: e.type,
    timestamp: e.at.toISOString(),
    subject: { kind: e.subjectKind, id: e.subjectId, seq: e.subjectSeq },
    data: e.data,
  };
}

/**
 * The log read by cursor (GET /api/v1/events): an account's own events — a provider's hosts'
 * and earnings' are theirs too (written to the provider's user) — after a cursor, oldest first,
 * waiting up to `wait` seconds for a first one when none is there yet.
 */
export function createEventsService(db: Db, signals: Signals) {
  /** Resolves at the next event written anywhere, or after `ms`. */
  function nextEvent(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const off = signals.on('events', done);
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  return {
    /** Deletes up to `batch` events older than the retention (the worker's housekeeping). */
    prune: (now: Date, batch: number): Promise<number> =>
      eventsRepo.prune(db, new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000), batch),

    async list(userId: string, q: ListEventsQuery): Promise<EventPage> {
      const after = q.after ? (eventNumberOf(q.after) ?? 0n) : 0n;
      const requested = (q.types ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const types = requested.filter((t) => !t.endsWith('.*'));
      const subjectKinds = requested.filter((t) => t.endsWith('.*')).map((t) => t.slice(0, -2));
      let subject: { kind: string; id: string } | undefined;
      if (q.subject) {
        const at = q.subject.indexOf(':');
        subject = { kind: q.subject.slice(0, at), id: q.subject.slice(at + 1) };
        if (!(EVENT_SUBJECT_KINDS as readonly string[]).includes(subject.kind)) {
          return { data: [], nextCursor: q.after ?? null, hasMore: false };
        }
      }
      const read = () =>
        eventsRepo.list(db, {
          after,
          limit: q.limit + 1,
          accountUserId: userId,
          types,
          subjectKinds,
          ...(subject ? { subject } : {}),
        });
      let rows = await read();
      const deadline = Date.now() + q.wait * 1000;
      while (rows.length === 0 && Date.now() < deadline) {
        // Written but not settled yet (an older transaction still runs): read again soon.
        if (await eventsRepo.unsettledAfter(db, after)) await sleep(20);
        else await nextEvent(Math.min(deadline - Date.now(), 1_000));
        rows = await read();
      }
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        data: page.map(presentEvent),
        nextCursor: last ? eventIdOf(last.id) : (q.after ?? null),
        hasMore: rows.length > q.limit,
      };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
