import type { InstanceState } from '../../../shared/rules/instance-lifecycle';
import type { Instance } from './repo-rows';

/** An instance's lifecycle state (its status column holds one of the rule's states). */
export const stateOf = (instance: Instance) => instance.status as InstanceState;
