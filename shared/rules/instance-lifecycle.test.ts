import { describe, expect, it } from 'vitest';
import {
  acceptsReport,
  allowedActions,
  alreadyDone,
  canAct,
  holdsUnit,
  INSTANCE_STATES,
  isLive,
  isTransitional,
  stateAfter,
} from './instance-lifecycle';

describe('instance lifecycle', () => {
  it('calls transitional exactly the states a host report moves on without a user', () => {
    const movedByHost = INSTANCE_STATES.filter((s) =>
      (['running', 'stopped', 'terminated'] as const).some((r) => acceptsReport(s, r)),
    );
    expect(INSTANCE_STATES.filter(isTransitional)).toEqual(movedByHost);
    expect(movedByHost).toEqual(['provisioning', 'stopping', 'starting', 'terminating']);
  });

  it('allows stop only from running and starting, start only from stopped', () => {
    expect(INSTANCE_STATES.filter((s) => canAct(s, 'stop'))).toEqual(['running', 'starting']);
    expect(INSTANCE_STATES.filter((s) => canAct(s, 'start'))).toEqual(['stopped']);
  });

  it('allows terminate from every live state and nothing once ended', () => {
    for (const s of INSTANCE_STATES) expect(canAct(s, 'terminate')).toBe(isLive(s));
    expect(allowedActions('terminated')).toEqual([]);
    expect(allowedActions('failed')).toEqual([]);
    expect(allowedActions('terminating')).toEqual([]);
  });

  it('calls a stop or a terminate done in every state in or past it, a start never', () => {
    expect(INSTANCE_STATES.filter((s) => alreadyDone(s, 'stop'))).toEqual([
      'stopping',
      'stopped',
      'terminating',
      'terminated',
      'failed',
    ]);
    expect(INSTANCE_STATES.filter((s) => alreadyDone(s, 'terminate'))).toEqual([
      'terminating',
      'terminated',
      'failed',
    ]);
    expect(INSTANCE_STATES.filter((s) => alreadyDone(s, 'start'))).toEqual([]);
    // Never both: an action is either allowed, already done, or refused.
    for (const s of INSTANCE_STATES) {
      for (const a of ['stop', 'terminate'] as const) {
        expect(canAct(s, a) && alreadyDone(s, a)).toBe(false);
      }
    }
  });

  it('holds a unit while provisioning, starting or running, never while stopped', () => {
    expect(INSTANCE_STATES.filter(holdsUnit)).toEqual(['provisioning', 'running', 'starting']);
  });

  it('waits for a host to confirm stop and terminate only when one runs the instance', () => {
    expect(stateAfter('stop', true)).toBe('stopping');
    expect(stateAfter('stop', false)).toBe('stopped');
    expect(stateAfter('terminate', true)).toBe('terminating');
    expect(stateAfter('terminate', false)).toBe('terminated');
    expect(stateAfter('start', true)).toBe('starting');
  });

  it('takes a host report only where the transition exists', () => {
    expect(acceptsReport('provisioning', 'running')).toBe(true);
    expect(acceptsReport('starting', 'running')).toBe(true);
    expect(acceptsReport('stopped', 'running')).toBe(false);
    expect(acceptsReport('stopping', 'stopped')).toBe(true);
    expect(acceptsReport('running', 'stopped')).toBe(false);
    expect(acceptsReport('terminating', 'terminated')).toBe(true);
    expect(acceptsReport('running', 'failed')).toBe(true);
    expect(acceptsReport('terminated', 'failed')).toBe(false);
  });
});
