import { allowedActions, type InstanceAction } from '../../../../shared/rules/instance-lifecycle';
import { invalidStateTransition } from '../../../lib/errors';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';

/** The lifecycle rule's refusal: 409 naming the state and what it allows. */
export function refuse(instance: Instance, action: InstanceAction): never {
  const state = stateOf(instance);
  throw invalidStateTransition(action, state, allowedActions(state));
}
