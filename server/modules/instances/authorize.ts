import { notFound } from '../../lib/errors';
import { type PlanCapabilities, termsOf } from './plans';

/**
 * Who acts on one instance: the signed-in user, on a surface that may show only the instances
 * listed there (`shows`: the marketplace's rentals, or the VM dashboard's machines — as each
 * plan declares, `PlanCapabilities.listedAs`), calling an instance by its own word in a 404
 * ("Rental", "Deployment").
 */
export interface Actor {
  userId: string;
  shows?: PlanCapabilities['listedAs'];
  calls?: string;
}

/** What an actor may ask of one instance (the lifecycle rule then says whether it can be done now). */
export type InstanceDeed = 'view' | 'console' | 'start' | 'stop' | 'terminate' | 'deadlines';

/** The actor of a caller who named only a user (their own instance, on every surface). */
export const actorOf = (who: string | Actor): Actor =>
  typeof who === 'string' ? { userId: who } : who;

/**
 * The one ownership rule: an actor acts on their own instance, listed on the surface they
 * use; anyone else's (or none) is as good as missing — 404, never 403, so ids reveal
 * nothing. Every instance deed is the owner's, so the deed does not change the answer.
 */
export function authorize<R extends { instance: { userId: string; billingPlan: string } }>(
  actor: Actor,
  _deed: InstanceDeed,
  row: R | null,
): R {
  const shown =
    row !== null &&
    (actor.shows === undefined || termsOf(row.instance).capabilities.listedAs === actor.shows);
  if (!row || !shown || row.instance.userId !== actor.userId) {
    throw notFound(actor.calls ?? 'Instance');
  }
  return row;
}
