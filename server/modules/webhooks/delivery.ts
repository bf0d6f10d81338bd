import type { EventSubjectKind, EventType } from '../../../shared/contracts/events';
import type { Conn, Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Mailer } from '../../lib/mailer';
import type { TargetCheck } from '../../lib/outbound-address';
import { usersService } from '../users/service';
import { type ClaimedDelivery, type WebhookEndpointRow, webhooksRepo } from './repo';
import { type AttemptOutcome, sendAttempt } from './send';
import { webhookHeaders } from './signing';

/** Writes one event in the caller's transaction (the event log's append, wired in deps.ts). */
export type AppendEvent = (
  conn: Conn,
  event: {
    type: EventType;
    at: Date;
    accountUserId: string;
    subjectKind: EventSubjectKind;
    subjectId: string;
    data: Record<string, unknown>;
  },
) => Promise<bigint>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** After the 1st, 2nd, … failed attempt of a run; the last delay repeats. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** A delivery is retried until three days after its first attempt (its last attempt is then). */
export const RETRY_FOR_MS = 3 * 24 * HOUR;
/** An endpoint whose attempts have failed for this long is disabled ('failing'). */
export const DISABLE_AFTER_MS = 3 * 24 * HOUR;
/** Attempts in flight per endpoint (across processes) and in this process. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 2;
export const MAX_IN_FLIGHT = 32;
/** How long a claim holds a delivery: past the attempt's 10 s, so a live one never lapses. */
export const CLAIM_LEASE_MS = 60 * SECOND;
/** How often the loop looks for due deliveries (an attempt that ends looks at once). */
export const POLL_INTERVAL_MS = 500;

export function retryDelayMs(attempts: number): number {
  const last = RETRY_DELAYS_MS.length - 1;
  return (
    RETRY_DELAYS_MS[Math.min(Math.max(attempts - 1, 0), last)] ?? (RETRY_DELAYS_MS[last] as number)
  );
}

export interface WebhookDeliveryDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  /** The address rule's setting (ALLOW_PRIVATE_HOST_ADDRESSES) and how names are looked up. */
  targets: TargetCheck;
  /** NODE_ENV=production: https URLs only. */
  httpsOnly: boolean;
  appendEvent: AppendEvent;
  /** One attempt's limit (10 s; tests shorten it). */
  timeoutMs?: number;
}

export interface WebhookLoop {
  stop(): Promise<void>;
}

/**
 * The delivery loop (docs/decisions/027): beside the worker's jobs, never inside them. It
 * claims due deliveries (repo.claim: a lease per delivery, at most 2 in flight per endpoint
 * and 32 in this process, in order per subject and endpoint), sends each outside any
 * transaction and records the outcome after; a slow endpoint holds only its own two places.
 * `runOnce(now)` is one pass that waits for its attempts (tests); `start` runs it on a timer.
 */
export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { db } = deps;
  let inFlight = 0;
  const running = new Set<Promise<void>>();

  function track(attempt: Promise<void>): Promise<void> {
    inFlight += 1;
    const tracked = attempt
      .catch((error: unknown) => deps.log.error({ err: error }, 'webhook attempt failed to record'))
      .finally(() => {
        inFlight -= 1;
        running.delete(tracked);
      });
    running.add(tracked);
    return tracked;
  }

  async function attempt(claimed: ClaimedDelivery, now: () => Date): Promise<void> {
    const at = now();
    const secrets = [claimed.secret];
    if (claimed.previousSecret && claimed.previousUntil && claimed.previousUntil > at) {
      secrets.push(claimed.previousSecret);
    }
    const headers = webhookHeaders({ eventId: claimed.eventId, at, body: claimed.body, secrets });
    let outcome: AttemptOutcome;
    try {
      outcome = await sendAttempt({
        url: claimed.url,
        headers,
        body: claimed.body,
        targets: deps.targets,
        httpsOnly: deps.httpsOnly,
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
    } catch (error) {
      outcome = {
        ok: false,
        status: null,
        latencyMs: 0,
        error: (error as Error).message,
        excerpt: null,
      };
    }
    await record(claimed, outcome, now());
  }

  async function record(claimed: ClaimedDelivery, outcome: AttemptOutcome, at: Date) {
    const last = {
      lastStatus: outcome.status,
      lastLatencyMs: outcome.latencyMs,
      lastError: outcome.error,
      responseExcerpt: outcome.excerpt,
    };
    const disabled = await db.transaction(async (tx) => {
      if (outcome.ok) {
        await webhooksRepo.recordAttempt(tx, claimed.id, claimed.attempts, {
          status: 'delivered',
          nextAttemptAt: null,
          ...last,
        });
        await webhooksRepo.markSucceeding(tx, claimed.endpointId);
        return null;
      }
      const first = (claimed.firstAttemptAt ?? at).getTime();
      const giveUpAt = first + RETRY_FOR_MS;
      const next =
        at.getTime() >= giveUpAt
          ? null
          : new Date(Math.min(at.getTime() + retryDelayMs(claimed.attempts), giveUpAt));
      await webhooksRepo.recordAttempt(tx, claimed.id, claimed.attempts, {
        status: next ? 'pending' : 'failed',
        nextAttemptAt: next,
        ...last,
      });
      const off = await webhooksRepo.markFailing(
        tx,
        claimed.endpointId,
        at,
        new Date(at.getTime() - DISABLE_AFTER_MS),
      );
      if (!off) return null;
      await webhooksRepo.holdPending(tx, off.id);
      await deps.appendEvent(tx, {
        type: 'webhook_endpoint.disabled',
        at,
        accountUserId: off.userId,
        subjectKind: 'webhook_endpoint',
        subjectId: off.id,
        data: {
          endpointId: off.id,
          url: off.url,
          reason: 'failing',
          failingSince: off.failingSince?.toISOString() ?? null,
        },
      });
      return off;
    });
    if (disabled) await mailDisabled(disabled);
  }

  async function mailDisabled(endpoint: WebhookEndpointRow): Promise<void> {
    try {
      const to = await usersService.alertAddress(db, endpoint.userId);
      if (!to) return;
      await deps.mailer.send({
        to,
        subject: 'Your RentGPU webhook endpoint was disabled',
        text: `Every delivery to your webhook endpoint ${endpoint.url} has failed for three days, so it was disabled and nothing more is sent to it. Its deliveries that were still waiting are kept: fix the endpoint, then enable it again in Settings → Webhooks (or PATCH /api/v1/webhook-endpoints/${endpoint.id} with {"enabled": true}) and they are sent, oldest first.`,
      });
    } catch (error) {
      deps.log.error({ err: error, endpointId: endpoint.id }, 'webhook disabled e-mail failed');
    }
  }

  /** The running loop's claim, once started (see `kick`). */
  let kick: () => void = () => {};

  async function claim(now: Date) {
    return webhooksRepo.claim(
      db,
      now,
      new Date(now.getTime() + CLAIM_LEASE_MS),
      MAX_IN_FLIGHT - inFlight,
      MAX_IN_FLIGHT_PER_ENDPOINT,
    );
  }

  return {
    /**
     * Claims and sends what is due at `now` and waits for those attempts, again while that
     * made more due (the next delivery of a subject); the attempts are signed and recorded at
     * `now`. Answers how many attempts were made.
     */
    async runOnce(now: Date = deps.clock.now()): Promise<number> {
      let total = 0;
      for (let round = 0; round < 100; round += 1) {
        const claimed = await claim(now);
        if (claimed.length === 0) break;
        total += claimed.length;
        await Promise.all(claimed.map((c) => track(attempt(c, () => now))));
      }
      return total;
    },

    /** Every `intervalMs`, and whenever an attempt ends, claims what is due and sends it. */
    start(clock: Clock, intervalMs = POLL_INTERVAL_MS): WebhookLoop {
      let stopped = false;
      const stopKicks = () => {
        kick = () => {};
      };
      let pass: Promise<void> | null = null;
      let again = false;
      const tick = () => {
        if (stopped) return;
        if (pass) {
          again = true;
          return;
        }
        pass = (async () => {
          do {
            again = false;
            const claimed = await claim(clock.now());
            for (const c of claimed) {
              void track(attempt(c, () => clock.now())).finally(tick);
            }
            if (claimed.length > 0 && inFlight < MAX_IN_FLIGHT) again = true;
          } while (again && !stopped);
        })()
          .catch((error: unknown) => deps.log.error({ err: error }, 'webhook claim failed'))
          .finally(() => {
            pass = null;
          });
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      kick = tick;
      tick();
      return {
        async stop() {
          stopped = true;
          stopKicks();
          clearInterval(timer);
          await pass;
          await Promise.allSettled([...running]);
        },
      };
    },

    /** Attempts running in this process now. */
    inFlight: () => inFlight,

    /**
     * New deliveries were written in this process (the webhooks reader committed): the running
     * loop claims at once instead of at its next poll. Nothing before `start`.
     */
    kick: () => kick(),
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
