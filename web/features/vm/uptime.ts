/**
 * Hours and minutes since the VM started; for one that is not running now but ran, how long
 * it ran ("Ran for 2h 5m", its charged compute minutes); 'Not started' when it never ran
 * (uptime.test.ts).
 */
export function uptime(startedAt: string | null, now: number, ranMinutes = 0): string {
  if (!startedAt) return ranMinutes > 0 ? `Ran for ${hoursAndMinutes(ranMinutes)}` : 'Not started';
  return hoursAndMinutes(Math.max(0, Math.floor((now - new Date(startedAt).getTime()) / 60_000)));
}

const hoursAndMinutes = (minutes: number) => `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
