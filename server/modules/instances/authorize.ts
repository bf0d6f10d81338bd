import { notFound } from '../../lib/errors';
import { type PlanName, planName } from './plans';

/**
 * Who acts on one instance: the signed-in user, on a surface that may show only one plan's
 * instances (rentals: booked; the VM dashboard: metered), calling an instance by its own
 * word in a 404 ("Rental", "Deployment").
 */
export interface Actor {
  userId: string;
  plan?: PlanName;
  calls?: string;
}

/** What an actor may ask of one instance (the lifecycle rule then says whether it can be done now). */
export type InstanceDeed = 'view' | 'console' | 'start' | 'stop' | 'terminate' | 'deadlines';

/** The actor of a caller who named only a user (their own instance, on every surface). */
export const actorOf = (who: string | Actor): Actor =>
  typeof who === 'string' ? { userId: who } : who;

/**
 * The one ownership rule: an actor acts on their own instance, of the plan their surface
 * shows; anyone else's (or none) is as good as missing — 404, never 403, so ids reveal
 * nothing. Every instance deed is the owner's, so the deed does not change the answer.
 */
export function authorize<R extends { instance: { userId: string; billingPlan: string } }>(
  actor: Actor,
  _deed: InstanceDeed,
  row: R | null,
): R {
  const shown = row !== null && (actor.plan === undefined || planName(row.instance) === actor.plan);
  if (!row || !shown || row.instance.userId !== actor.userId) {
    throw notFound(actor.calls ?? 'Instance');
  }
  return row;
}
