import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Conn } from '../../../db/client';
import { type InstanceOutage, instanceOutages } from '../../../db/schema';

/**
 * Instances' time with their host unreachable (docs/decisions/022): what usage, invoices and
 * the provider's host view show as "host unreachable — not charged". Never money: the ledger
 * is untouched here.
 */
export const outagesRepo = {
  /** A host went dark: each of these instances is unreachable from `at` (one open row each). */
  async open(conn: Conn, hostId: string, instanceIds: number[], at: Date) {
    if (instanceIds.length === 0) return;
    await conn
      .insert(instanceOutages)
      .values(instanceIds.map((instanceId) => ({ instanceId, hostId, startedAt: at })))
      .onConflictDoNothing();
  },

  /** The host is back: its instances' open outages end at `at`. */
  async close(conn: Conn, hostId: string, at: Date) {
    await conn
      .update(instanceOutages)
      .set({
        endedAt: sql`greatest(${at.toISOString()}::timestamptz, ${instanceOutages.startedAt})`,
      })
      .where(and(eq(instanceOutages.hostId, hostId), isNull(instanceOutages.endedAt)));
  },

  /** Metered minutes let pass unbilled because the host is dark, counted on the open outage. */
  async countNotCharged(conn: Conn, counts: { id: number; minutes: number }[]) {
    const due = counts.filter((c) => c.minutes > 0);
    if (due.length === 0) return;
    const values = sql.join(
      due.map((c) => sql`(${c.id}::int, ${c.minutes}::int)`),
      sql`, `,
    );
    await conn.execute(sql`
      update ${instanceOutages} o set minutes_not_charged = o.minutes_not_charged + v.minutes
      from (values ${values}) as v(id, minutes)
      where o.instance_id = v.id and o.ended_at is null`);
  },

  /** One instance's outages, oldest first. */
  forInstance(conn: Conn, instanceId: number): Promise<InstanceOutage[]> {
    return conn
      .select()
      .from(instanceOutages)
      .where(eq(instanceOutages.instanceId, instanceId))
      .orderBy(asc(instanceOutages.startedAt));
  },
};
