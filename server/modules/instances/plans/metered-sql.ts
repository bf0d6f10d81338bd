import { and, eq, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { MINUTES_PER_HOUR, STORAGE_MICROS_PER_GB_HOUR } from '../../../../shared/rules/metering';
import type { Conn } from '../../../db/client';
import { balanceAlerts, hosts, instances } from '../../../db/schema';
import type { PlanName } from './plan';
import { planArray, plansThat } from './registry';

/**
 * One minute's price in SQL, from the same rule and constants as shared/rules/metering.ts
 * `minuteChargeMicros` (each hourly figure ÷ 60, rounded up to the micro-dollar; compute only
 * when `computing`); metered-sql.test.ts checks that both agree.
 */
export function minutePriceSql(rateMicros: SQL, storageGb: SQL, computing: SQL): SQL {
  const perMinute = (hourly: SQL) =>
    sql`((${hourly}) + ${MINUTES_PER_HOUR - 1}) / ${MINUTES_PER_HOUR}`;
  return sql`(case when ${computing} then ${perMinute(sql`(${rateMicros})::bigint`)} else 0 end
    + ${perMinute(sql`(${storageGb})::bigint * ${Number(STORAGE_MICROS_PER_GB_HOUR)}`)})`;
}

/**
 * The metered plan's statements: the minutes that are due, paid time moved on, the users who
 * spend, and the low-balance marks their banner and warnings read.
 */
export const meteredSql = {
  /**
   * The running instances charged by the minute of a user, or only those one of their keys
   * launched: what a spend cap reached stops (plans/spend-caps.ts).
   */
  async runningPerMinute(conn: Conn, userId: string, apiKeyId: string | null): Promise<number[]> {
    const rows = await conn
      .select({ id: instances.id })
      .from(instances)
      .where(
        and(
          eq(instances.userId, userId),
          inArray(
            instances.billingPlan,
            plansThat((c) => c.chargesPerMinute),
          ),
          eq(instances.status, 'running'),
          apiKeyId === null ? undefined : eq(instances.apiKeyId, apiKeyId),
        ),
      )
      .orderBy(instances.id);
    return rows.map((r) => r.id);
  },

  /**
   * Metered instances whose paid time has run out, oldest first; held rows are skipped. A
   * minute that begins after its host was last heard from waits (ADR 011: time after a host's
   * last heartbeat is never charged): it is claimed once the host heartbeats again (charged),
   * or once the host is marked offline (let pass unbilled, as its instances are unreachable).
   */
  claimUnpaid(conn: Conn, plan: PlanName, now: Date, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          eq(instances.billingPlan, plan),
          isNull(instances.endTime),
          lte(instances.paidThrough, now),
          sql`(${instances.unreachableSince} is not null or not exists (
            select 1 from ${hosts} h where h.id = ${instances.hostId}
              and h.enrolled_at is not null
              and coalesce(h.last_heartbeat_at, h.enrolled_at) < ${instances.paidThrough}))`,
        ),
      )
      .orderBy(instances.paidThrough, instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** After one minute's charge: paid a minute further, counts and total moved. */
  async recordMinutes(
    conn: Conn,
    rows: { id: number; compute: number; storage: number; charged: bigint }[],
  ) {
    if (rows.length === 0) return;
    const values = sql.join(
      rows.map(
        (r) =>
          sql`(${r.id}::int, ${r.compute}::int, ${r.storage}::int, ${String(r.charged)}::bigint)`,
      ),
      sql`, `,
    );
    await conn.execute(sql`
      update ${instances} i set
        paid_through = i.paid_through + interval '1 minute',
        compute_minutes = i.compute_minutes + v.compute,
        storage_minutes = i.storage_minutes + v.storage,
        charged_micros = i.charged_micros + v.charged
      from (values ${values}) as v(id, compute, storage, charged)
      where i.id = v.id`);
  },

  /**
   * The minute an instance begins on create or start (plans/metered-opening.ts): paid time
   * from now to a minute on, its minutes counted (none when its key was used before) and its
   * charge added.
   */
  async recordOpeningMinute(
    conn: Conn,
    id: number,
    paidThrough: Date,
    minutes: { compute: number; storage: number; charged: bigint },
  ) {
    const rows = await conn
      .update(instances)
      .set({
        paidThrough,
        computeMinutes: sql`${instances.computeMinutes} + ${minutes.compute}::int`,
        storageMinutes: sql`${instances.storageMinutes} + ${minutes.storage}::int`,
        chargedMicros: sql`${instances.chargedMicros} + ${String(minutes.charged)}::bigint`,
      })
      .where(eq(instances.id, id))
      .returning();
    return rows[0] ?? null;
  },

  /** Its charges given back (plans/metered-opening.ts `refundNeverReady`): nothing counted. */
  async clearCharges(conn: Conn, id: number) {
    await conn
      .update(instances)
      .set({ computeMinutes: 0, storageMinutes: 0, chargedMicros: 0n })
      .where(eq(instances.id, id));
  },

  /**
   * Users with metered instances that still exist: their wallet balance and what their
   * instances cost per hour now (compute while running — from ready, ADR 026 — storage
   * always), each minute priced as shared/rules/metering.ts prices it (`minutePriceSql`).
   */
  async meteredSpenders(conn: Conn, limit: number, afterUserId: string | null) {
    const result = await conn.execute(sql`
      select i.user_id,
        sum(${minutePriceSql(sql`i.hourly_rate_micros`, sql`i.storage_gb`, sql`i.status = 'running'`)})::bigint * 60 as hourly,
        (select a.balance_micros from ledger_accounts a
          where a.kind = 'wallet' and a.user_id = i.user_id) as balance
      from ${instances} i
      where i.billing_plan = any(${planArray((c) => c.chargesPerMinute)}::text[]) and i.end_time is null
        and (${afterUserId}::uuid is null or i.user_id > ${afterUserId}::uuid)
      group by i.user_id
      order by i.user_id
      limit ${limit}`);
    return (
      result as unknown as { rows: { user_id: string; hourly: string; balance: string | null }[] }
    ).rows.map((r) => ({
      userId: r.user_id,
      hourlyMicros: BigInt(r.hourly),
      balanceMicros: BigInt(r.balance ?? '0'),
    }));
  },

  /** Flips the low-balance mark; true only for the call that flipped it (warn once). */
  async markLowBalance(conn: Conn, userId: string, at: Date): Promise<boolean> {
    const rows = await conn
      .insert(balanceAlerts)
      .values({ userId, lowBalanceAt: at })
      .onConflictDoUpdate({
        target: balanceAlerts.userId,
        set: { lowBalanceAt: at },
        setWhere: isNull(balanceAlerts.lowBalanceAt),
      })
      .returning({ userId: balanceAlerts.userId });
    return rows.length === 1;
  },

  /** The wallet is above the threshold again: the next crossing warns anew; banners go. */
  async clearBalanceAlerts(conn: Conn, userId: string) {
    await conn
      .update(balanceAlerts)
      .set({ lowBalanceAt: null, stoppedAt: null, stoppedCount: 0 })
      .where(
        and(
          eq(balanceAlerts.userId, userId),
          sql`(${balanceAlerts.lowBalanceAt} is not null or ${balanceAlerts.stoppedAt} is not null)`,
        ),
      );
  },

  async markStoppedForCredits(conn: Conn, userId: string, at: Date, count: number) {
    await conn
      .insert(balanceAlerts)
      .values({ userId, stoppedAt: at, stoppedCount: count })
      .onConflictDoUpdate({
        target: balanceAlerts.userId,
        set: { stoppedAt: at, stoppedCount: sql`${balanceAlerts.stoppedCount} + ${count}` },
      });
  },

  async balanceAlertOf(conn: Conn, userId: string) {
    const rows = await conn
      .select()
      .from(balanceAlerts)
      .where(eq(balanceAlerts.userId, userId))
      .limit(1);
    return rows[0] ?? null;
  },
};
