import { describe, expect, it } from 'vitest';
import {
  countdown,
  deadlineOvertaken,
  deadlineProblem,
  MAX_DEADLINE_MS,
  parseDuration,
} from './deadlines';
import { INSTANCE_STATES } from './instance-lifecycle';

const NOW = new Date('2030-01-01T00:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe('deadlines', () => {
  it('parse durations as people write them', () => {
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('90m')).toBe(5_400_000);
    expect(parseDuration('1d12h')).toBe(129_600_000);
    expect(parseDuration('0h')).toBeNull();
    expect(parseDuration('2 hours')).toBeNull();
  });

  it('lie in the future and within a year', () => {
    expect(deadlineProblem(at(1), NOW)).toBeNull();
    expect(deadlineProblem(at(MAX_DEADLINE_MS), NOW)).toBeNull();
    expect(deadlineProblem(at(0), NOW)).toBe('must be in the future');
    expect(deadlineProblem(at(MAX_DEADLINE_MS + 1), NOW)).toBe('must be within a year from now');
    expect(deadlineProblem(new Date('nope'), NOW)).toBe('must be a date and time');
  });

  it('count down in days, hours, minutes and seconds', () => {
    const now = NOW.getTime();
    expect(countdown(at(2 * 86_400_000 + 3 * 3_600_000 + 5_000), now)).toBe('2d 3h');
    expect(countdown(at(3_600_000 + 5 * 60_000), now)).toBe('1h 05m');
    expect(countdown(at(4 * 60_000 + 9_000), now)).toBe('4m 09s');
    expect(countdown(at(0), now)).toBe('now');
    expect(countdown(at(-1000).toISOString(), now)).toBe('now');
  });

  it('stop counting once the instance is on its way: a stop once stopping, a terminate once terminating', () => {
    expect(deadlineOvertaken('stop', 'stopping')).toMatch(/^Stopping now/);
    expect(deadlineOvertaken('stop', 'stopped')).toMatch(/^Stopped/);
    expect(deadlineOvertaken('terminate', 'terminating')).toBe('Terminating now');
    // Still counting: a stop while running or starting, a terminate while stopping or stopped.
    for (const state of ['provisioning', 'running', 'starting'] as const) {
      expect(deadlineOvertaken('stop', state)).toBeNull();
    }
    for (const state of INSTANCE_STATES.filter((s) => s !== 'terminating')) {
      expect(deadlineOvertaken('terminate', state)).toBeNull();
    }
  });
});
