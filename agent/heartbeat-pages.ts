import {
  AGENT_HEARTBEAT_LIST_MAX,
  AGENT_HEARTBEAT_MAX_PAGES,
  type DesiredInstance,
  type HeartbeatResponse,
  type InstanceStatus,
} from '../shared/contracts/agent-protocol';

/**
 * A heartbeat's answer taken whole: its first page, then (when the server says `nextCursor`)
 * the following pages at once, each a heartbeat with `cursor` (shared/contracts/agent-protocol.ts).
 * `complete` is false only when more than AGENT_HEARTBEAT_MAX_PAGES pages were offered: then
 * what `previous` listed and no page read did is kept, so a page not read makes no orphan.
 */
export async function readAnswer(
  send: (cursor: string | undefined) => Promise<HeartbeatResponse>,
  previous: readonly DesiredInstance[],
): Promise<{ answer: HeartbeatResponse; instances: DesiredInstance[]; complete: boolean }> {
  const answer = await send(undefined);
  const instances = [...answer.instances];
  let cursor = answer.nextCursor;
  for (let pages = 1; cursor !== undefined && pages < AGENT_HEARTBEAT_MAX_PAGES; pages += 1) {
    const page = await send(cursor);
    instances.push(...page.instances);
    cursor = page.nextCursor;
  }
  if (cursor === undefined) return { answer, instances, complete: true };
  const listed = new Set(instances.map((d) => d.id));
  for (const d of previous) if (!listed.has(d.id)) instances.push(d);
  return { answer, instances, complete: false };
}

/**
 * The statuses one heartbeat carries: all of them, or for a host that holds more than
 * AGENT_HEARTBEAT_LIST_MAX a window that moves on at every heartbeat, so the server hears of
 * each (and recovers any lost report) within a few heartbeats.
 */
export class StatusWindow {
  private start = 0;

  constructor(private readonly max = AGENT_HEARTBEAT_LIST_MAX) {}

  next(all: readonly InstanceStatus[]): InstanceStatus[] {
    if (all.length <= this.max) {
      this.start = 0;
      return [...all];
    }
    const start = this.start % all.length;
    this.start = start + this.max;
    return [...all.slice(start), ...all.slice(0, start)].slice(0, this.max);
  }
}
