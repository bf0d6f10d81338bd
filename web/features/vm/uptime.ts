/** Hours and minutes since the VM started, or 'Not started' (uptime.test.ts). */
export function uptime(startedAt: string | null, now: number): string {
  if (!startedAt) return 'Not started';
  const minutes = Math.max(0, Math.floor((now - new Date(startedAt).getTime()) / 60_000));
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
