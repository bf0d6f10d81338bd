import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uptimePercent } from './uptime';

const DAY = 24 * 60 * 60 * 1000;
const WINDOW = 30 * DAY;
const now = new Date('2026-06-30T00:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const outage = (from: number, to: number | null) => ({
  startedAt: ago(from),
  endedAt: to === null ? null : ago(to),
});

describe('uptimePercent', () => {
  it('is null for a host that never enrolled', () => {
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: null, outages: [] })).toBeNull();
  });

  it('is 100 without outages, and at the moment of enrolment', () => {
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(90 * DAY), outages: [] })).toBe(
      100,
    );
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: now, outages: [] })).toBe(100);
  });

  it('counts a 3-day outage in 30 days as 90%', () => {
    const outages = [outage(10 * DAY, 7 * DAY)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(90);
  });

  it('clips the window to the enrolment: 1 day down of 10 enrolled is 90%', () => {
    const outages = [outage(5 * DAY, 4 * DAY)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(10 * DAY), outages })).toBe(90);
  });

  it('clips outages to the window: the part before it does not count', () => {
    // 40 days ago until 27 days ago: only the last 3 days of it are inside the window.
    const outages = [outage(40 * DAY, 27 * DAY)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(90);
  });

  it('an open outage lasts until now', () => {
    const outages = [outage(3 * DAY, null)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(90);
  });

  it('overlapping outages count each moment once', () => {
    const outages = [outage(10 * DAY, 8 * DAY), outage(9 * DAY, 7 * DAY), outage(9 * DAY, 9 * DAY)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(90);
  });

  it('rounds down to one decimal: a minute short of 100 is 99.9, not 100', () => {
    const outages = [outage(DAY, DAY - 60_000)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(99.9);
  });

  it('is 0 when down the whole window', () => {
    const outages = [outage(40 * DAY, null)];
    expect(uptimePercent({ now, windowMs: WINDOW, enrolledAt: ago(60 * DAY), outages })).toBe(0);
  });

  it('stays within 0..100 and never rises when an outage is added', () => {
    const span = fc.integer({ min: 0, max: 40 * DAY });
    const anOutage = fc
      .tuple(span, span, fc.boolean())
      .map(([a, b, open]) => outage(Math.max(a, b), open ? null : Math.min(a, b)));
    fc.assert(
      fc.property(fc.array(anOutage, { maxLength: 6 }), anOutage, span, (outages, extra, age) => {
        const enrolledAt = ago(age);
        const before = uptimePercent({ now, windowMs: WINDOW, enrolledAt, outages });
        const after = uptimePercent({
          now,
          windowMs: WINDOW,
          enrolledAt,
          outages: [...outages, extra],
        });
        expect(before).not.toBeNull();
        expect(after).not.toBeNull();
        expect(before).toBeGreaterThanOrEqual(0);
        expect(before).toBeLessThanOrEqual(100);
        expect(after ?? 0).toBeLessThanOrEqual(before ?? 0);
      }),
    );
  });
});
