import { sql } from 'drizzle-orm';
import type { InstanceState } from '../../shared/rules/instance-lifecycle';

/**
 * A set of lifecycle states (shared/rules/instance-lifecycle.ts) as SQL text, `('a', 'b')`:
 * for index predicates and statements written by hand, which take no parameters. The states
 * are the rule's constants, never input. Elsewhere, drizzle's `inArray(column, STATES)`.
 */
export const stateList = (states: readonly InstanceState[]) =>
  sql.raw(`(${states.map((s) => `'${s}'`).join(', ')})`);
