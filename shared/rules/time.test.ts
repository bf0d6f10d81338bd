import { describe, expect, it } from 'vitest';
import { formatDate, formatDay, startOfMonthIn } from './time';

describe('startOfMonthIn', () => {
  it('is midnight of the 1st in UTC', () => {
    expect(startOfMonthIn(new Date('2026-03-15T12:00:00Z'), 'UTC').toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });

  it('follows the zone: Kolkata is 5:30 ahead, so its month starts the evening before in UTC', () => {
    expect(startOfMonthIn(new Date('2026-03-15T12:00:00Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-02-28T18:30:00.000Z',
    );
  });

  it('an instant that is already next month in Tokyo counts in the new month there', () => {
    // 2026-03-31 20:00 UTC is 2026-04-01 05:00 in Tokyo.
    expect(startOfMonthIn(new Date('2026-03-31T20:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-03-31T15:00:00.000Z',
    );
  });

  it('uses the offset in force on the 1st, not today (New York in March after DST)', () => {
    // DST begins 2026-03-08; on March 1st New York is still UTC-5.
    expect(startOfMonthIn(new Date('2026-03-20T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-03-01T05:00:00.000Z',
    );
    expect(startOfMonthIn(new Date('2026-04-20T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-04-01T04:00:00.000Z',
    );
  });
});

describe('formatDate', () => {
  it('writes an English day in UTC as Intl.DateTimeFormat does, without one', () => {
    const intl = new Intl.DateTimeFormat('en', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    const dates = ['1999-12-31T23:59:59Z', '2000-02-29T00:00:00Z', '9999-12-31T00:00:00Z'];
    for (let month = 0; month < 12; month += 1) {
      for (const day of [1, 9, 10, 28])
        dates.push(new Date(Date.UTC(2026, month, day, 23, 30)).toISOString());
    }
    for (const iso of dates)
      expect(formatDate(iso, { timeZone: 'UTC' }), iso).toBe(intl.format(new Date(iso)));
    expect(formatDate(new Date(Date.UTC(2026, 8, 5)), { timeZone: 'UTC' })).toBe('Sep 5, 2026');
    // As before: not a date is refused as Intl refuses it.
    expect(() => formatDate('not a date', { timeZone: 'UTC' })).toThrow(RangeError);
  });

  it('formats in the zone and language', () => {
    expect(formatDate('2026-03-31T20:00:00Z', { timeZone: 'Asia/Tokyo' })).toBe('Apr 1, 2026');
    expect(formatDate('2026-03-31T20:00:00Z', { timeZone: 'UTC', language: 'de' })).toBe(
      '31. März 2026',
    );
  });
});

describe('one date format', () => {
  it('writes a day of the history as formatDate writes a date, in any zone', () => {
    expect(formatDay('2026-11-22')).toBe('Nov 22, 2026');
    expect(formatDay('2026-11-22')).toBe(formatDate('2026-11-22T23:59:00Z'));
    expect(formatDay('2026-01-01', { language: 'en' })).toBe('Jan 1, 2026');
    expect(formatDate('2026-11-22T14:05:00Z', { withTime: true })).toBe('Nov 22, 2026, 02:05 PM');
  });

  it('leaves anything that is not a day as it is', () => {
    expect(formatDay('today')).toBe('today');
  });
});
