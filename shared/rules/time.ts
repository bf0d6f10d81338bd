/** Calendar arithmetic in a named time zone (settings → preferences.timezone), no libraries. */

// Making an Intl.DateTimeFormat costs far more than using one (a page of dates made one per
// date): each is made once per zone, language and shape, and kept.
const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = formats.get(key);
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

function wallClock(at: Date, timeZone: string) {
  const parts = dateFormat(
    `wall|${timeZone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  ).formatToParts(at);
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

const EN_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/** A date (and optionally time) for people, in their language and time zone. */
export function formatDate(
  iso: string | Date,
  options: { timeZone?: string; language?: string; withTime?: boolean } = {},
): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  const language = options.language ?? 'en';
  const timeZone = options.timeZone ?? 'UTC';
  const withTime = options.withTime ?? false;
  // An English day in UTC (every invoice and receipt date) is written without Intl: a page's
  // first Intl.DateTimeFormat costs a phone 70-200 ms (4x CPU) to make, the invoice page's
  // largest long task. time.test.ts holds the two to the same output.
  const year = date.getUTCFullYear();
  if (language === 'en' && timeZone === 'UTC' && !withTime && year >= 1000 && year <= 9999) {
    return `${EN_MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${year}`;
  }
  return dateFormat(
    `date|${language}|${timeZone}|${withTime}`,
    () =>
      new Intl.DateTimeFormat(language, {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        ...(withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
      }),
  ).format(date);
}

/**
 * A calendar day ("2026-11-22", already in the user's time zone, as the credit history groups
 * by) in the same format as formatDate: "Nov 22, 2026". Read as that day, whatever the zone.
 */
export function formatDay(day: string, options: { language?: string } = {}): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  return formatDate(`${day}T12:00:00Z`, { language: options.language ?? 'en', timeZone: 'UTC' });
}
