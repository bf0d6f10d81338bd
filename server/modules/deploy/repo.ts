import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { instances } from '../../db/schema';

/** Fewer samples than this and a host's start time counts as unknown. */
const MIN_SAMPLES = 3;
const SAMPLES = 20;

export const deployRepo = {
  /**
   * Seconds from creation to running on a host, measured: the 90th percentile over its last
   * 20 instances that became ready (rounded up); null with fewer than 3.
   */
  async measuredReadySeconds(conn: Conn, hostId: string): Promise<number | null> {
    const rows = await conn
      .select({ start: instances.startTime, ready: instances.readyAt })
      .from(instances)
      .where(and(eq(instances.hostId, hostId), isNotNull(instances.readyAt)))
      .orderBy(desc(instances.readyAt))
      .limit(SAMPLES);
    const seconds = rows
      .flatMap((r) => (r.ready ? [(r.ready.getTime() - r.start.getTime()) / 1000] : []))
      .sort((a, b) => a - b);
    if (seconds.length < MIN_SAMPLES) return null;
    const p90 = seconds[Math.ceil(seconds.length * 0.9) - 1] ?? seconds[seconds.length - 1] ?? 0;
    return Math.max(1, Math.ceil(p90));
  },
};
