/**
 * A host's uptime score: the share of a rolling window (30 days, or since it enrolled when
 * that is later) it was not in an outage. Outages may overlap or still be open (endedAt null:
 * until now); each moment of downtime counts once.
 */
export interface OutagePeriod {
  startedAt: Date;
  endedAt: Date | null;
}

export interface UptimeInput {
  now: Date;
  windowMs: number;
  /** When the host enrolled; null (never enrolled) gives no score. */
  enrolledAt: Date | null;
  outages: readonly OutagePeriod[];
}

/**
 * Percent of [max(now − window, enrolledAt), now] outside every outage, rounded down to one
 * decimal (99.96 shows 99.9, never a 100 the host did not earn). Null before enrolment; 100 at
 * the very moment of enrolment.
 */
export function uptimePercent(input: UptimeInput): number | null {
  const measured = downtime(input);
  if (!measured) return null;
  const { span, down } = measured;
  if (span <= 0) return 100;
  const percent = ((span - down) / span) * 100;
  return Math.min(100, Math.max(0, Math.floor(percent * 10 + 1e-9) / 10));
}

/**
 * The window's length and the part of it in outages (each moment once), in milliseconds;
 * null before enrolment.
 */
export function downtime({
  now,
  windowMs,
  enrolledAt,
  outages,
}: UptimeInput): { span: number; down: number } | null {
  if (!enrolledAt) return null;
  const end = now.getTime();
  const start = Math.max(end - windowMs, enrolledAt.getTime());
  const span = end - start;
  if (span <= 0) return { span: 0, down: 0 };
  const clipped = outages
    .map((o) => ({
      from: Math.max(o.startedAt.getTime(), start),
      to: Math.min(o.endedAt ? o.endedAt.getTime() : end, end),
    }))
    .filter((o) => o.to > o.from)
    .sort((a, b) => a.from - b.from);
  let down = 0;
  let reach = start;
  for (const { from, to } of clipped) {
    const begin = Math.max(from, reach);
    if (to > begin) {
      down += to - begin;
      reach = to;
    }
  }
  return { span, down };
}
