/**
 * Idle stop of a metered instance (issue 23, part 4; docs/decisions/019): stopped once its
 * GPUs stayed under a utilisation threshold with no SSH session and no web console open for N
 * minutes.
 * One rule for the web, the public API, the CLI and the account default.
 */

/** Minutes a renter gets when turning idle stop on without naming them. */
export const IDLE_STOP_DEFAULT_MINUTES = 60;
/** GPU utilisation under this (percent) is idle, unless the renter names another threshold. */
export const IDLE_THRESHOLD_DEFAULT_PERCENT = 5;
/** The renter is warned 10 minutes before, so idle stop needs at least 15. */
export const IDLE_STOP_MIN_MINUTES = 15;
/** At most a week. */
export const IDLE_STOP_MAX_MINUTES = 7 * 24 * 60;

/** Whether `minutes` is a valid idle-stop setting: 0 (off) or 15 to 10080. */
export const validIdleMinutes = (minutes: number) =>
  Number.isInteger(minutes) &&
  (minutes === 0 || (minutes >= IDLE_STOP_MIN_MINUTES && minutes <= IDLE_STOP_MAX_MINUTES));

export const IDLE_MINUTES_MESSAGE = `must be 0 (off) or whole minutes from ${IDLE_STOP_MIN_MINUTES} to ${IDLE_STOP_MAX_MINUTES}`;
export const IDLE_THRESHOLD_MESSAGE = 'must be a whole percent from 1 to 100';

/** Idle stop as a renter reads it: "after 60 min under 5% GPU", or "off". */
export function idleStopLabel(minutes: number | null, thresholdPercent: number): string {
  if (!minutes) return 'off';
  const span = minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
  return `after ${span} under ${thresholdPercent}% GPU with no SSH or web console session`;
}

/** The idle-stop minutes the web offers (a card, the create form, Settings): "0" is off. */
export const IDLE_STOP_CHOICES: readonly { value: string; label: string }[] = [
  { value: '0', label: 'Off' },
  { value: '30', label: 'After 30 minutes idle' },
  { value: '60', label: 'After 1 hour idle' },
  { value: '120', label: 'After 2 hours idle' },
  { value: '240', label: 'After 4 hours idle' },
  { value: '720', label: 'After 12 hours idle' },
];
