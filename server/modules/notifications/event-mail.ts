import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { instances } from '../../db/schema';
import type { Mailer } from '../../lib/mailer';
import type { DurableEventReader, StoredEvent } from '../events/types';
import { type PlanCapabilities, planNames, termsNamed } from '../instances/plans/registry';
import type { AlertRecipient } from '../instances/types';
import { usersService } from '../users/service';
import { hostAlertSender, type InstanceEvent, instanceAlertSender } from './service';

/**
 * Which of an instance's endings its renter is e-mailed about, by plan (what each plan told
 * before the log: a rental's readiness, expiry, time-out and host failure; a metered instance's
 * stops by the system and its host's failure).
 */
const ENDING_ALERTS: Record<string, InstanceEvent['kind']> = {
  expiry: 'expired',
  provisioning_timeout: 'timed_out',
  host_failed: 'host_failed',
  insufficient_credits: 'stopped_for_credits',
  deadline_stop: 'deadline_stopped',
  deadline_terminate: 'deadline_terminated',
  spend_cap: 'stopped_for_spend_cap',
  idle_stop: 'idle_stopped',
};
/** What its renter is told of, by where the instance is listed (each plan declares it). */
const TELLS: Record<PlanCapabilities['listedAs'], ReadonlySet<InstanceEvent['kind']>> = {
  rental: new Set(['ready', 'timed_out', 'expired', 'host_failed']),
  machine: new Set([
    'host_failed',
    'stopped_for_credits',
    'deadline_stopped',
    'deadline_terminated',
    'idle_stop_warning',
    'idle_stopped',
    'stopped_for_spend_cap',
  ]),
};
/** A state an ending starts from: the first step of a stop or an end is the one told. */
const ENDING_FROM = new Set(['provisioning', 'running', 'starting', 'stopped']);
const ENDING_TO = new Set(['stopping', 'stopped', 'terminating', 'terminated', 'failed']);

/** The renter's alert an event is, or null. */
export function instanceAlertOf(e: StoredEvent): InstanceEvent | null {
  const d = e.data;
  const plan = typeof d.billingPlan === 'string' ? d.billingPlan : null;
  const listed =
    plan !== null && planNames().includes(plan) ? termsNamed(plan).capabilities.listedAs : null;
  const base = { userId: e.accountUserId, instanceId: Number(e.subjectId) };
  let kind: InstanceEvent['kind'] | null = null;
  if (e.type === 'instance.ready' && d.previousState === 'provisioning') kind = 'ready';
  else if (e.type === 'instance.idle_warning') kind = 'idle_stop_warning';
  else if (
    ENDING_TO.has(String(d.state)) &&
    ENDING_FROM.has(String(d.previousState)) &&
    typeof d.reason === 'string'
  ) {
    kind = ENDING_ALERTS[d.reason] ?? null;
    // A host that reported a failure is not its 20 minutes of silence.
    if (kind === 'host_failed' && d.state === 'failed' && d.wasUnreachable !== true) kind = null;
  }
  if (kind === null || listed === null || !TELLS[listed].has(kind)) return null;
  return { kind, ...base };
}

/**
 * The `mail` reader of the event log (docs/decisions/027): renters' instance, balance and
 * spend-cap alerts and providers' host-offline alerts, chosen by type and sent where the
 * user's notification settings allow. Sent before the cursor moves: a crash in between sends
 * the batch's alerts again (at least once), never none.
 */
export function createMailReader(deps: {
  db: Db;
  mailer: Mailer;
  log?: { error(obj: unknown, msg: string): void };
}): DurableEventReader {
  const sendInstance = instanceAlertSender(deps);
  const sendHost = hostAlertSender(deps);
  /** The renter's alert of an event, or null (a host's goes to its provider: hostAlertSender). */
  function renterAlertOf(e: StoredEvent): InstanceEvent | null {
    if (e.subjectKind === 'instance') return instanceAlertOf(e);
    if (e.type === 'wallet.low_balance') {
      return {
        kind: 'low_balance',
        userId: e.accountUserId,
        balance: String(e.data.balance ?? '0.00'),
      };
    }
    if (e.type === 'spend_cap.warning') {
      const d = e.data;
      return {
        kind: 'spend_cap_warning',
        userId: e.accountUserId,
        spendCap: {
          cap: String(d.cap),
          spent: String(d.spent),
          period: d.period === 'month' ? 'month' : 'day',
          apiKeyId: typeof d.apiKeyId === 'string' ? d.apiKeyId : null,
        },
      };
    }
    return null;
  }
  async function mailFor(
    e: StoredEvent,
    alert: InstanceEvent | null,
    recipients: Map<string, AlertRecipient>,
  ): Promise<void> {
    if (alert) {
      // Its recipient read with the batch's; one not found is looked up (and refused) alone.
      const recipient = recipients.get(alert.userId);
      await sendInstance(recipient ? { ...alert, recipient } : alert);
    } else if (e.type === 'host.offline') {
      const unreachable = await deps.db
        .select({ id: instances.id })
        .from(instances)
        .where(
          and(
            eq(instances.hostId, e.subjectId),
            isNotNull(instances.unreachableSince),
            isNull(instances.endTime),
          ),
        );
      await sendHost({ hostId: e.subjectId, instanceIds: unreachable.map((r) => r.id) });
    }
  }

  return {
    name: 'mail',
    // What it mails about (renterAlertOf, mailFor): the rest of the log is never read for it.
    wants: {
      subjectKinds: ['instance'],
      types: ['wallet.low_balance', 'spend_cap.warning', 'host.offline'],
    },
    async effect(events) {
      const alerts = events.map(renterAlertOf);
      // Every renter alert's address and settings in one statement, not one per alert.
      const recipients = await usersService.alertRecipients(
        deps.db,
        alerts.flatMap((a) => (a ? [a.userId] : [])),
      );
      // One alert that cannot be sent (a refused address) is logged and passed: it never holds
      // back everyone's mail. A crash before the cursor moves sends the batch again.
      for (const [i, e] of events.entries()) {
        try {
          await mailFor(e, alerts[i] ?? null, recipients);
        } catch (error) {
          deps.log?.error(
            { err: error, eventId: String(e.id), type: e.type },
            'alert e-mail failed',
          );
        }
      }
    },
  };
}
