import { describe, expect, it } from 'vitest';
import { desiredInstance } from '../test/desired-instance';
import { type ActualInstance, type LastReport, planConvergence } from './plan';

const want = desiredInstance;
const has = (
  id: string,
  phase: ActualInstance['phase'],
  failedGeneration: number | null = null,
) => ({
  id,
  phase,
  failedGeneration,
});
const kinds = (actions: ReturnType<typeof planConvergence>) =>
  actions.map((a) =>
    a.kind === 'stop-orphan'
      ? `stop-orphan ${a.id}`
      : a.kind === 'report'
        ? `report ${a.desired.id} ${a.state}`
        : `${a.kind} ${a.desired.id}`,
  );

const none = new Map<string, LastReport>();

describe('planConvergence', () => {
  it('creates what should run and is not there, starts what is stopped', () => {
    expect(
      kinds(
        planConvergence([want('a', 'running'), want('b', 'running')], [has('b', 'stopped')], none),
      ),
    ).toEqual(['create a', 'start b']);
  });

  it('adopts a QEMU that runs but was not yet seen ready (after an agent restart)', () => {
    expect(kinds(planConvergence([want('a', 'running')], [has('a', 'booting')], none))).toEqual([
      'await-ready a',
    ]);
  });

  it('reports a steady state once per generation', () => {
    const desired = [want('a', 'running', 3)];
    const actual = [has('a', 'running')];
    expect(kinds(planConvergence(desired, actual, none))).toEqual(['report a running']);
    const reported = new Map([['a', { generation: 3, state: 'running' as const }]]);
    expect(planConvergence(desired, actual, reported)).toEqual([]);
    const older = new Map([['a', { generation: 2, state: 'running' as const }]]);
    expect(kinds(planConvergence(desired, actual, older))).toEqual(['report a running']);
  });

  it('stops what runs or boots and should be stopped; never creates a stopped instance', () => {
    expect(
      kinds(
        planConvergence(
          [want('a', 'stopped'), want('b', 'stopped'), want('c', 'stopped')],
          [has('a', 'running'), has('b', 'booting')],
          none,
        ),
      ),
    ).toEqual(['stop a', 'stop b', 'report c stopped']);
  });

  it('terminates whatever is there, and reports terminated when nothing is', () => {
    expect(
      kinds(
        planConvergence(
          [want('a', 'terminated'), want('b', 'terminated')],
          [has('a', 'stopped')],
          none,
        ),
      ),
    ).toEqual(['terminate a', 'report b terminated']);
  });

  it('does not retry a failed boot until the server sends a newer generation', () => {
    expect(
      kinds(planConvergence([want('a', 'running', 4)], [has('a', 'stopped', 4)], none)),
    ).toEqual(['report a failed']);
    expect(
      kinds(planConvergence([want('a', 'running', 5)], [has('a', 'stopped', 4)], none)),
    ).toEqual(['start a']);
  });

  it('leaves instances with an action in flight alone', () => {
    expect(
      planConvergence([want('a', 'running')], [has('a', 'booting')], none, new Set(['a'])),
    ).toEqual([]);
  });

  it('stops instances the server does not list, keeping their disks, and leaves stopped ones', () => {
    expect(kinds(planConvergence([], [has('x', 'running'), has('y', 'stopped')], none))).toEqual([
      'stop-orphan x',
    ]);
  });
});
