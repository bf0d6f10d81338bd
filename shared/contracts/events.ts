import { z } from 'zod';

/**
 * The event log's types (docs/decisions/027): `<subject>.<what happened>`, past tense. One
 * list for the database's writers (server/db/migrations/0037_events.sql), the public API's
 * enum, webhook endpoint filters, the CLI and the web. A type added here is added there.
 */
export const EVENT_TYPES = [
  'instance.created',
  'instance.ready',
  'instance.stopping',
  'instance.stopped',
  'instance.starting',
  'instance.terminating',
  'instance.terminated',
  'instance.failed',
  'instance.host_unreachable',
  'instance.host_reachable',
  'instance.idle_warning',
  'wallet.credited',
  'wallet.debited',
  'wallet.low_balance',
  'spend_cap.warning',
  'spend_cap.reached',
  'host.offline',
  'host.online',
  'host.readiness_changed',
  'earnings.credited',
  'earnings.debited',
  'webhook_endpoint.disabled',
  'test.ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an event is about: `instance:42`, `host:h_…`, `wallet:<user id>`, … */
export const EVENT_SUBJECT_KINDS = [
  'instance',
  'host',
  'wallet',
  'earnings',
  'spend_cap',
  'webhook_endpoint',
  'test',
] as const;
export type EventSubjectKind = (typeof EVENT_SUBJECT_KINDS)[number];

/** How long events are kept (days); the housekeeping job deletes older ones. */
export const EVENT_RETENTION_DAYS = 30;

/** Why an instance stopped or ended (its `reason`), as the instance's end reason says. */
export const EVENT_END_REASONS = [
  'user',
  /** Stopped on its host (the machine shut down), not by RentGPU or its renter. */
  'host',
  'api',
  'expiry',
  'provisioning_timeout',
  'insufficient_credits',
  'host_failed',
  'demo_cleanup',
  'deadline_stop',
  'deadline_terminate',
  'spend_cap',
  'idle_stop',
  /** Its GPU was taken back (a plan that may be preempted; none of the shipped plans). */
  'preempted',
] as const;

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
