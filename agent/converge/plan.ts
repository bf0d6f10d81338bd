import type { DesiredInstance, InstanceReportState } from '../../shared/contracts/agent-protocol';

/** What the host has of one instance. */
export interface ActualInstance {
  id: string;
  /** stopped = the host has it and nothing runs it; booting = it runs, not yet confirmed ready. */
  phase: 'stopped' | 'booting' | 'running';
}

export interface LastReport {
  generation: number;
  state: InstanceReportState;
}

export type Action =
  | { kind: 'create'; desired: DesiredInstance }
  | { kind: 'start'; desired: DesiredInstance }
  | { kind: 'await-ready'; desired: DesiredInstance }
  | { kind: 'stop'; desired: DesiredInstance }
  | { kind: 'terminate'; desired: DesiredInstance }
  /** Not (or no longer) listed by the server: stop it, keep the disk, report nothing. */
  | { kind: 'stop-orphan'; id: string }
  | { kind: 'report'; desired: DesiredInstance; state: InstanceReportState };

/**
 * Desired (from the last heartbeat answer) + actual (what the driver lists: agent/driver.ts)
 * → what to do now. Pure: the agent executes the actions, at most one per instance at
 * a time (`busy` instances are skipped), and plans again after each one finishes.
 * `held`: instance id → the generation whose create or start failed and whose next try is
 * not due yet (failed-boots.ts); such an instance is only reported failed, once, whether or
 * not the host has anything of it.
 */
export function planConvergence(
  desired: readonly DesiredInstance[],
  actual: readonly ActualInstance[],
  reported: ReadonlyMap<string, LastReport>,
  busy: ReadonlySet<string> = new Set(),
  held: ReadonlyMap<string, number> = new Map(),
): Action[] {
  const actions: Action[] = [];
  const byId = new Map(actual.map((a) => [a.id, a]));
  const reportOnce = (d: DesiredInstance, state: InstanceReportState) => {
    const last = reported.get(d.id);
    if (last?.generation !== d.generation || last.state !== state) {
      actions.push({ kind: 'report', desired: d, state });
    }
  };
  for (const d of desired) {
    if (busy.has(d.id)) continue;
    const a = byId.get(d.id);
    switch (d.state) {
      case 'running':
        if (a?.phase === 'booting') actions.push({ kind: 'await-ready', desired: d });
        else if (a?.phase === 'running') reportOnce(d, 'running');
        else if (held.get(d.id) === d.generation) reportOnce(d, 'failed');
        else actions.push({ kind: a ? 'start' : 'create', desired: d });
        break;
      case 'stopped':
        if (a && a.phase !== 'stopped') actions.push({ kind: 'stop', desired: d });
        else reportOnce(d, 'stopped');
        break;
      case 'terminated':
        if (a) actions.push({ kind: 'terminate', desired: d });
        else reportOnce(d, 'terminated');
        break;
    }
  }
  const listed = new Set(desired.map((d) => d.id));
  for (const a of actual) {
    if (!listed.has(a.id) && !busy.has(a.id) && a.phase !== 'stopped') {
      actions.push({ kind: 'stop-orphan', id: a.id });
    }
  }
  return actions;
}
