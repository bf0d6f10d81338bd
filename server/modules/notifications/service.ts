import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { hosts, providers } from '../../db/schema';
import type { Mailer } from '../../lib/mailer';
import type { HostEvent } from '../hosts/service';
import type { AlertRecipient } from '../instances/types';
import { usersService } from '../users/service';

/** An e-mail alert to a user: what it is about (event-mail.ts makes these from the event log). */
export interface InstanceEvent {
  kind:
    | 'ready'
    | 'expired'
    | 'timed_out'
    | 'stopped_for_credits'
    | 'low_balance'
    | 'host_failed'
    | 'deadline_stopped'
    | 'deadline_terminated'
    | 'spend_cap_warning'
    | 'stopped_for_spend_cap'
    | 'idle_stop_warning'
    | 'idle_stopped';
  userId: string;
  /** The instance concerned (absent for a balance warning). */
  instanceId?: number;
  /** The wallet balance at the time (balance warnings), in dollars. */
  balance?: string;
  /** Spend-cap alerts: the cap concerned, what was spent, its period and whose (a key's or all). */
  spendCap?: { cap: string; spent: string; period: 'day' | 'month'; apiKeyId: string | null };
  /** The user's address and settings, when read with the event: the alert reads nothing more. */
  recipient?: AlertRecipient;
}

const MESSAGES: Record<
  InstanceEvent['kind'],
  (id: number, event: InstanceEvent) => { subject: string; text: string }
> = {
  ready: (id) => ({
    subject: `Your RentGPU instance is ready (rental #${id})`,
    text: `Rental #${id} is ready. Its SSH address is on your dashboard: /dashboard`,
  }),
  expired: (id) => ({
    subject: `Your RentGPU rental #${id} has ended`,
    text: `Rental #${id} reached the end of its booked hours and was stopped. Any unused time was returned to your credits.`,
  }),
  timed_out: (id) => ({
    subject: `Rental #${id} was cancelled and refunded`,
    text: `The host of rental #${id} did not become ready in time, so the rental was cancelled and the full amount returned to your credits.`,
  }),
  stopped_for_credits: (id) => ({
    subject: `Instance #${id} was stopped: your credits ran out`,
    text: `Your credit balance could not pay for the next minute of instance #${id}, so it was stopped. Nothing was deleted: add credits at /payments and start it again.`,
  }),
  host_failed: (id) => ({
    subject: `Instance #${id} ended: its host went offline`,
    text: `The host running instance #${id} has been unreachable for 20 minutes, so the instance was ended. Time it was unreachable was not billed, and any unused booked time was returned to your credits.`,
  }),
  deadline_stopped: (id) => ({
    subject: `Instance #${id} was stopped at its deadline`,
    text: `Instance #${id} reached the "stop at" time you set, so it was stopped. Nothing was deleted: its disk is kept and you can start it again from /vm-dashboard.`,
  }),
  deadline_terminated: (id) => ({
    subject: `Instance #${id} was terminated at its deadline`,
    text: `Instance #${id} reached the "terminate at" time you set, so it was terminated and its disk deleted. Charges for it have stopped.`,
  }),
  idle_stop_warning: (id) => ({
    subject: `Instance #${id} will be stopped in 10 minutes: it is idle`,
    text: `Instance #${id} has had its GPUs under your idle threshold, no SSH session and no web console open for most of the idle-stop time you set, so it will be stopped in 10 minutes. Nothing will be deleted. Use its GPU, log in over SSH or open its web console to keep it running, or change idle stop on /vm-dashboard.`,
  }),
  idle_stopped: (id) => ({
    subject: `Instance #${id} was stopped: it was idle`,
    text: `Instance #${id} had its GPUs under your idle threshold, no SSH session and no web console open for the idle-stop time you set, so it was stopped. Nothing was deleted: its disk is kept and you can start it again from /vm-dashboard.`,
  }),
  low_balance: (_id, event) => ({
    subject: 'Your RentGPU credit balance is running low',
    text: `Your balance is $${event.balance ?? '0.00'}, below your low-balance threshold. Running instances stop when the balance cannot pay the next minute. Add credits at /payments.`,
  }),
  spend_cap_warning: (_id, event) => {
    const c = event.spendCap;
    const whose = c?.apiKeyId ? 'An API key of yours has' : 'Your account has';
    const which = c?.period === 'month' ? 'monthly' : 'daily';
    return {
      subject: `You have spent 80% of your ${which} spend cap`,
      text: `${whose} spent $${c?.spent ?? '0.00'} of its ${which} spend cap of $${c?.cap ?? '0.00'}. When a charge would go over the cap, running metered instances are stopped (never deleted) and new launches are refused. Change your caps in Settings → Billing.`,
    };
  },
  stopped_for_spend_cap: (id) => ({
    subject: `Instance #${id} was stopped: a spend cap was reached`,
    text: `The next minute of instance #${id} would have gone over a spend cap you set, so it was stopped. Nothing was deleted: raise the cap in Settings → Billing (or on the API key) and start it again.`,
  }),
};

/**
 * Instance alerts by e-mail, sent only when the user's settings have both e-mail
 * notifications and instance alerts on. Failures are logged, never thrown at the worker.
 */
export function createInstanceAlerts(deps: {
  db: Db;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void };
}) {
  const send = instanceAlertSender(deps);
  return (event: InstanceEvent) => {
    send(event).catch((error: unknown) =>
      deps.log.error({ err: error, event }, 'instance alert e-mail failed'),
    );
  };
}

/** Sends one instance alert (where the user's settings allow); resolves once it is sent. */
export function instanceAlertSender(deps: { db: Db; mailer: Mailer }) {
  return async function send(event: InstanceEvent): Promise<void> {
    const to = event.recipient
      ? usersService.alertAddressOf(event.recipient)
      : await usersService.alertAddress(deps.db, event.userId);
    if (!to) return;
    await deps.mailer.send({
      to,
      ...MESSAGES[event.kind](event.instanceId ?? 0, event),
    });
  };
}

/**
 * Tells a provider by e-mail that one of their hosts went offline (same settings as instance
 * alerts). Renters hear from instance alerts when their instance fails after 20 minutes.
 */
export function createHostAlerts(deps: {
  db: Db;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void };
}) {
  const send = hostAlertSender(deps);
  return (event: HostEvent) => {
    send(event).catch((error: unknown) =>
      deps.log.error({ err: error, event }, 'host alert e-mail failed'),
    );
  };
}

/** Sends a provider's host-offline alert (where their settings allow). */
export function hostAlertSender(deps: { db: Db; mailer: Mailer }) {
  return async function send(event: Pick<HostEvent, 'hostId' | 'instanceIds'>): Promise<void> {
    const rows = await deps.db
      .select({ name: hosts.name, userId: providers.userId })
      .from(hosts)
      .innerJoin(providers, eq(providers.id, hosts.providerId))
      .where(eq(hosts.id, event.hostId));
    const row = rows[0];
    if (!row?.userId) return;
    const to = await usersService.alertAddress(deps.db, row.userId);
    if (!to) return;
    const n = event.instanceIds.length;
    await deps.mailer.send({
      to,
      subject: `Your host "${row.name}" is offline`,
      text: `RentGPU has not heard from host "${row.name}" for 90 seconds, so it is offline: its listings cannot be rented and ${n} instance${n === 1 ? '' : 's'} on it ${n === 1 ? 'is' : 'are'} not billed until it is back. Instances unreachable for 20 minutes end and their renters are refunded. Check the agent with: systemctl status rentgpu-agent`,
    });
  };
}
