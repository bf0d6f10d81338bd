/**
 * A time from the API (ISO 8601, UTC) as a person reads it on a terminal: the local date and
 * time to the minute and how long ago (or from now) it is, e.g. "2026-11-26 17:05 (3 min ago)".
 * JSON output keeps the API's own text.
 */
export function localTime(iso: string | null | undefined, now = Date.now()): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${day} ${two(at.getHours())}:${two(at.getMinutes())} (${relative(at.getTime() - now)})`;
}

/**
 * A moment as the event log's readers want it: the local date and time to the second
 * ("2026-11-26 17:05:09"), without the relative part (a followed log reads top to bottom).
 */
export function localSecond(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${day} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

/** "just now", "3 min ago", "in 2 h", "5 days ago": the largest whole unit. */
export function relative(deltaMs: number): string {
  const seconds = Math.round(Math.abs(deltaMs) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.max(1, Math.round(seconds / 60));
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const amount = minutes < 60 ? `${minutes} min` : hours < 48 ? `${hours} h` : `${days} days`;
  return deltaMs < 0 ? `${amount} ago` : `in ${amount}`;
}
