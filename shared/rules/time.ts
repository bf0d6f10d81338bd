/** Calendar arithmetic in a named time zone (settings → preferences.timezone), no libraries. */

function wallClock(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetMs(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant the current month began in the time zone (midnight of the 1st there). */
export function startOfMonthIn(now: Date, timeZone: string): Date {
  const { year, month } = wallClock(now, timeZone);
  const wallMidnight = Date.UTC(year, month - 1, 1);
  let guess = wallMidnight - offsetMs(new Date(wallMidnight), timeZone);
  // A second pass settles months that begin on the other side of a DST change.
  guess = wallMidnight - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** A date (and optionally time) for people, in their language and time zone. */
export function formatDate(
  iso: string | Date,
  options: { timeZone?: string; language?: string; withTime?: boolean } = {},
): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return new Intl.DateTimeFormat(options.language ?? 'en', {
    timeZone: options.timeZone ?? 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(options.withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
  }).format(date);
}
