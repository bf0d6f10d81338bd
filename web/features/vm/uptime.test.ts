import { describe, expect, it } from 'vitest';
import { uptime } from './uptime';

describe('uptime', () => {
  const start = '2026-01-01T10:00:00.000Z';
  const at = (iso: string) => new Date(iso).getTime();

  it("says 'Not started' without a start time", () => {
    expect(uptime(null, at(start))).toBe('Not started');
  });

  it('counts whole hours and minutes since the start', () => {
    expect(uptime(start, at('2026-01-01T10:00:59.999Z'))).toBe('0h 0m');
    expect(uptime(start, at('2026-01-01T10:01:00.000Z'))).toBe('0h 1m');
    expect(uptime(start, at('2026-01-01T12:05:30.000Z'))).toBe('2h 5m');
    expect(uptime(start, at('2026-01-03T10:00:00.000Z'))).toBe('48h 0m');
  });

  it('never goes below zero when the browser clock is behind the server', () => {
    expect(uptime(start, at('2026-01-01T09:59:00.000Z'))).toBe('0h 0m');
  });

  it('says how long a stopped VM ran, and Not started only when it never ran', () => {
    expect(uptime(null, at(start), 135)).toBe('Ran for 2h 15m');
    expect(uptime(null, at(start), 1)).toBe('Ran for 0h 1m');
    expect(uptime(null, at(start), 0)).toBe('Not started');
    // While it runs, the time since this start, whatever it ran before.
    expect(uptime(start, at('2026-01-01T10:30:00.000Z'), 500)).toBe('0h 30m');
  });
});
