import { allowedActions, type InstanceAction } from '../../../../shared/rules/instance-lifecycle';
import { type InstanceChange, invalidStateTransition } from '../../../lib/errors';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';

/**
 * The lifecycle rule's refusal: 409 naming the state and what it allows, in the words of what
 * was asked — a lifecycle action, or a change of the instance's deadlines or idle stop (allowed
 * while it has not ended).
 */
export function refuse(instance: Instance, action: InstanceAction | InstanceChange): never {
  const state = stateOf(instance);
  throw invalidStateTransition(action, state, allowedActions(state));
}
