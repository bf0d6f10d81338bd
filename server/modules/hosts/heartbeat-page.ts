import {
  AGENT_HEARTBEAT_LIST_MAX,
  type DesiredInstance,
} from '../../../shared/contracts/agent-protocol';
import { validationFailed } from '../../lib/errors';

/**
 * One page of a heartbeat's answer: the desired instances (as the instance core built them,
 * instances/host-side/desired.ts) after `cursor` (the last id the previous page listed), in order of id,
 * at most `max`, with `nextCursor` when more follow. A host with more instances than one
 * answer may carry reads them all in a few heartbeats in a row, instead of an answer too long
 * to send.
 */
export function desiredPage(
  all: readonly DesiredInstance[],
  cursor: string | undefined,
  max = AGENT_HEARTBEAT_LIST_MAX,
): { instances: DesiredInstance[]; nextCursor?: string } {
  const after = cursor === undefined ? 0 : Number(cursor);
  if (cursor !== undefined && (!/^\d+$/.test(cursor) || !Number.isSafeInteger(after))) {
    throw validationFailed({ cursor: ['Not a cursor this server gave: send nextCursor back.'] });
  }
  const rest = all.filter((d) => Number(d.id) > after).sort((a, b) => Number(a.id) - Number(b.id));
  if (rest.length <= max) return { instances: rest };
  const instances = rest.slice(0, max);
  const last = instances[instances.length - 1];
  return { instances, ...(last ? { nextCursor: last.id } : {}) };
}
