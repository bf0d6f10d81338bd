import { EVENT_TYPES, type EventType } from '../../shared/event-names';

/**
 * What each event type of shared/contracts/events.ts says happened, in one line: read by the
 * documentation's list and the webhook type picker. A type added to the contract fails the
 * type check here until it is described.
 */
export const EVENT_TYPE_DESCRIPTIONS: Record<EventType, string> = {
  'instance.created': 'An instance was rented, deployed or launched; it is provisioning.',
  'instance.ready': 'The instance booted and can be reached; compute is charged from now.',
  'instance.stopping': 'A stop began: asked by you, a deadline, idle stop, a spend cap or credits.',
  'instance.stopped':
    'The instance stopped; reason is user, deadline_stop, idle_stop, spend_cap or insufficient_credits.',
  'instance.starting': 'A stopped instance is starting again.',
  'instance.terminating': 'The instance is being deleted.',
  'instance.terminated': 'The instance is gone for good, with its final cost and any refund.',
  'instance.failed': 'The instance could not be provisioned or kept running; reason says why.',
  'instance.host_unreachable': 'The instance’s host stopped answering: an outage began.',
  'instance.host_reachable': 'The instance’s host answers again: the outage ended.',
  'instance.idle_warning': 'The instance has been idle and idle stop will stop it soon.',
  'wallet.credited': 'Credits were added: a purchase, its bonus, a refund or an outage credit.',
  'wallet.debited': 'Credits were charged: booked hours, metered minutes or storage.',
  'wallet.low_balance': 'Your balance fell below your low-balance warning.',
  'spend_cap.warning': 'Spending came near one of your spend caps.',
  'spend_cap.reached': 'A spend cap was reached; the instances it covers are being stopped.',
  'host.offline': 'One of your hosts (as a provider) stopped sending heartbeats.',
  'host.online': 'One of your hosts sends heartbeats again.',
  'host.readiness_changed': 'A host’s readiness to take instances changed (GPUs, problems).',
  'earnings.credited': 'Your provider earnings grew: a renter paid for one of your GPUs.',
  'earnings.debited': 'Your provider earnings shrank: a refund or an outage credit to a renter.',
  'webhook_endpoint.disabled': 'A webhook endpoint was disabled after failing for three days.',
  'test.ping': 'A test event, sent with “Send test event”.',
};

export interface EventTypeGroup {
  subject: string;
  label: string;
  types: EventType[];
}

const GROUP_LABELS: Record<string, string> = {
  instance: 'Instances',
  wallet: 'Wallet',
  spend_cap: 'Spend caps',
  host: 'Hosts (providers)',
  earnings: 'Earnings (providers)',
  webhook_endpoint: 'Webhook endpoints',
  test: 'Tests',
};

/** EVENT_TYPES grouped by subject (the part before the dot), in the contract's order. */
export const EVENT_TYPE_GROUPS: EventTypeGroup[] = EVENT_TYPES.reduce<EventTypeGroup[]>(
  (groups, type) => {
    const subject = type.slice(0, type.indexOf('.'));
    const group = groups.find((g) => g.subject === subject);
    if (group) group.types.push(type);
    else groups.push({ subject, label: GROUP_LABELS[subject] ?? subject, types: [type] });
    return groups;
  },
  [],
);
