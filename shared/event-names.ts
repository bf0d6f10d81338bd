/**
 * The event log's names without zod: its types, subjects, retention and end reasons. The web
 * pages and shared/rules read them from here, so a page that shows an event type does not
 * load and build every schema of shared/contracts/events.ts (zod) to do it; the contract
 * re-exports them, so the server and the CLI read them from there as before.
 */

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
