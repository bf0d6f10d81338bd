import { z } from 'zod';
import { EVENT_SUBJECT_KINDS, EVENT_TYPES } from '../event-names';

export {
  EVENT_END_REASONS,
  EVENT_RETENTION_DAYS,
  EVENT_SUBJECT_KINDS,
  EVENT_TYPES,
  type EventSubjectKind,
  type EventType,
} from '../event-names';

export const eventView = z.object({
  /** `evt_<n>`: the global order; the cursor of GET /api/v1/events and the webhook-id. */
  id: z.string(),
  type: z.enum(EVENT_TYPES),
  /** When the change happened (ISO 8601). */
  timestamp: z.string(),
  subject: z.object({
    kind: z.enum(EVENT_SUBJECT_KINDS),
    id: z.string(),
    /** 1, 2, 3… per subject: a gap means a missed event, a smaller one a reorder. */
    seq: z.number().int(),
  }),
  /** What a client needs without a second call (see the event types' list in the docs). */
  data: z.record(z.string(), z.unknown()),
});
export type EventView = z.infer<typeof eventView>;

/** `evt_123` ↔ 123n. */
export function eventIdOf(id: bigint | number | string): string {
  return `evt_${id}`;
}
export function eventNumberOf(id: string): bigint | null {
  const m = /^(?:evt_)?(\d{1,19})$/.exec(id);
  return m ? BigInt(m[1] as string) : null;
}

const cursor = z
  .string()
  .regex(/^(?:evt_)?\d{1,19}$/, { message: 'after must be an event id such as evt_123' });

export const listEventsQuery = z.object({
  /** Events after this one (exclusive); none: from the oldest kept. */
  after: cursor.optional(),
  /** Comma-separated types; a prefix with `.*` (`instance.*`) takes every type of a subject. */
  types: z
    .string()
    .max(2000)
    .optional()
    .refine(
      (v) =>
        v === undefined ||
        v
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
          .every(
            (t) =>
              (EVENT_TYPES as readonly string[]).includes(t) ||
              (t.endsWith('.*') &&
                (EVENT_SUBJECT_KINDS as readonly string[]).includes(t.slice(0, -2))),
          ),
      { message: 'types must be event types (e.g. instance.ready) or subject.*' },
    ),
  /** `instance:42`, `host:h_…`, … */
  subject: z
    .string()
    .max(200)
    .regex(/^[a-z_]+:[A-Za-z0-9_.:@-]+$/, { message: 'subject must look like instance:42' })
    .optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number from 1 to 500' })
    .int({ message: 'limit must be a number from 1 to 500' })
    .min(1, { message: 'limit must be a number from 1 to 500' })
    .max(500, { message: 'limit must be a number from 1 to 500' })
    .default(100),
  /** Seconds to wait for a first new event when none is there yet (0: answer at once). */
  wait: z.coerce
    .number({ message: 'wait must be a number of seconds from 0 to 30' })
    .int({ message: 'wait must be a number of seconds from 0 to 30' })
    .min(0, { message: 'wait must be a number of seconds from 0 to 30' })
    .max(30, { message: 'wait must be a number of seconds from 0 to 30' })
    .default(0),
});
export type ListEventsQuery = z.infer<typeof listEventsQuery>;

export const eventPage = z.object({
  /** Oldest first, newest last. */
  data: z.array(eventView),
  /** Pass as `after` for the next page: the last event's id, or the same cursor when none. */
  nextCursor: z.string().nullable(),
  /** True when more events are there now (ask again at once). */
  hasMore: z.boolean(),
});
export type EventPage = z.infer<typeof eventPage>;
