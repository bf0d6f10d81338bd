import { describe, expect, it } from 'vitest';
import { desiredInstance } from '../test/desired-instance';
import { type ActualInstance, type LastReport, planConvergence } from './plan';

const want = desiredInstance;
const has = (id: string, phase: ActualInstance['phase']) => ({ id, phase });
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

  it('does not retry a failed boot before its retry is due or the server sends a newer generation', () => {
    const held = new Map([['a', 4]]);
    const plan = (generation: number, actual: ActualInstance[], h = held) =>
      kinds(planConvergence([want('a', 'running', generation)], actual, none, new Set(), h));
    expect(plan(4, [has('a', 'stopped')])).toEqual(['report a failed']);
    // Failed before the host made anything of it: still held, never created again meanwhile.
    expect(plan(4, [])).toEqual(['report a failed']);
    const reported = new Map([['a', { generation: 4, state: 'failed' as const }]]);
    expect(planConvergence([want('a', 'running', 4)], [], reported, new Set(), held)).toEqual([]);
    expect(plan(5, [has('a', 'stopped')])).toEqual(['start a']);
    expect(plan(5, [])).toEqual(['create a']);
    // Its retry is due: tried again.
    expect(plan(4, [], new Map())).toEqual(['create a']);
    expect(plan(4, [has('a', 'stopped')], new Map())).toEqual(['start a']);
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
