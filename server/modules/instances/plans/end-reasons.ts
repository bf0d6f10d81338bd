import { type InstanceState, stateAfter } from '../../../../shared/rules/instance-lifecycle';
import type { Instance } from '../repo-rows';
import type { EndReason } from '../types';
import type { Ending } from './plan';

/**
 * What each way of ending (or the system's stop) leads to, in one table:
 * - `reason`: the end reason stored on the instance;
 * - `to`: the state it goes to: `released` is the lifecycle's terminate (terminating while a
 *   host runs it, else terminated), `stopped` its stop, or a state named outright;
 * - money: always the plan's — `end` of the booked plan settles the escrow (used time to
 *   the provider, the rest refunded; never ready: everything back, storage included), of
 *   the metered plan gives nothing back (minutes already paid stay paid); the stop for
 *   credits charges nothing more.
 * Which endings its renter is e-mailed about is the e-mail's own choice, read from the event
 * log (modules/notifications/event-mail.ts).
 */
export const ENDINGS = {
  /** A renter's terminate or rental stop, on the web. */
  user: { reason: 'user', to: 'released' },
  /** The same through the public API. */
  api: { reason: 'api', to: 'released' },
  /** A demo visitor's account closing (docs/decisions/010). */
  demoCleanup: { reason: 'demo_cleanup', to: 'released' },
  /** A booked rental's hours ran out: ended at the end of its hours. */
  expiry: { reason: 'expiry', to: 'released' },
  /** Not ready by its provisioning deadline. */
  provisioningTimeout: { reason: 'provisioning_timeout', to: 'failed' },
  /** Its host was unreachable for 20 minutes (worker/jobs.ts). */
  hostUnreachable: { reason: 'host_failed', to: 'failed' },
  /** Its host reported that it failed. */
  hostReportedFailure: { reason: 'host_failed', to: 'failed' },
  /** A wallet that cannot pay a running metered instance's minute: stopped, never deleted. */
  outOfCredits: { reason: 'insufficient_credits', to: 'stopped' },
  /** Its renter's "stop at" came (worker/jobs.ts): stopped as by their own stop, disk kept. */
  deadlineStop: { reason: 'deadline_stop', to: 'stopped' },
  /** Its renter's "terminate at" came: ended as by their own terminate. */
  deadlineTerminate: { reason: 'deadline_terminate', to: 'released' },
  /** A metered minute that would cross a spend cap: stopped, never deleted (issue 23). */
  spendCap: { reason: 'spend_cap', to: 'stopped' },
  /** Its GPUs stayed idle and no console was open for its idle-stop minutes (ADR 019). */
  idleStop: { reason: 'idle_stop', to: 'stopped' },
  /** Its GPU was taken back before its renter ended it (a plan that declares `preemptible`). */
  preempted: { reason: 'preempted', to: 'released' },
} as const satisfies Record<
  string,
  {
    reason: EndReason;
    to: 'released' | 'stopped' | InstanceState;
  }
>;

export type EndingName = keyof typeof ENDINGS;

/** The renter's endings by the reason a caller names (user, api, demo_cleanup). */
export const RENTER_ENDINGS: Partial<Record<EndReason, EndingName>> = {
  user: 'user',
  api: 'api',
  demo_cleanup: 'demoCleanup',
};

/** The ending of `name` for this instance at `at`: when, why, and to which state. */
export function ending(name: EndingName, instance: Instance, at: Date): Ending {
  const rule = ENDINGS[name];
  const placed = instance.hostId !== null;
  const to =
    rule.to === 'released'
      ? stateAfter('terminate', placed)
      : rule.to === 'stopped'
        ? stateAfter('stop', placed)
        : rule.to;
  return { at, by: rule.reason, to };
}

/** The renter's ending for a reason a caller names; any other reason ends as the renter's would. */
export function renterEnding(by: EndReason, instance: Instance, at: Date): Ending {
  const name = RENTER_ENDINGS[by];
  return name ? ending(name, instance, at) : { ...ending('user', instance, at), by };
}
