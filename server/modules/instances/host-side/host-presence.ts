import type { InstanceHostStatus } from '../../../../shared/contracts/listings';
import type { InstanceAction } from '../../../../shared/rules/instance-lifecycle';
import type { Instance } from '../repo-rows';

/** The in-process demo host's id (server/modules/hosts/demo-host.ts, DEMO_HOST_ID). */
const DEMO_HOST = 'demo';

/**
 * Where an instance runs, in the listing's words (never `not_ready`: that is about renting) (docs/decisions/022): offline from its host's
 * last heartbeat once the worker found the host silent (`unreachable_since`, the same mark that
 * stops its billing), so every renter view and the bill agree.
 */
export function hostPresence(instance: Pick<Instance, 'hostId' | 'unreachableSince'>): {
  status: InstanceHostStatus;
  offlineSince: Date | null;
} {
  if (instance.unreachableSince !== null) {
    return { status: 'offline', offlineSince: instance.unreachableSince };
  }
  if (instance.hostId === null) return { status: 'none', offlineSince: null };
  return { status: instance.hostId === DEMO_HOST ? 'demo' : 'online', offlineSince: null };
}

/** What a renter's action answers while the host is unreachable: accepted, run on its return. */
export function waitingForHost(
  instance: Pick<Instance, 'unreachableSince'>,
  action: InstanceAction,
): string | null {
  if (instance.unreachableSince === null) return null;
  return `The host is unreachable: your ${action} was accepted and will run when the host is back.`;
}
