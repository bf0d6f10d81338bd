import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { gpuListings, hostOutages, hosts, instanceOutages, instances } from '../../db/schema';
import { planArray } from '../instances/plans/registry';

export interface HostUsage {
  listings: number;
  liveInstances: number;
  /** Its listings that cannot be rented because the host lost a GPU (docs/decisions/020). */
  listingProblems: { listingId: number; model: string; problem: string }[];
}

/** The provider side of hosts: rows a provider owns, their usage and their outages. */
/** A removed host: kept for history, its credential and enrol token cleared. */
const removed = (now: Date) => ({
  removedAt: now,
  credentialHash: null,
  enrolTokenHash: null,
  enrolTokenExpiresAt: null,
});

export const providerHostsRepo = {
  /** A provider's hosts that are not removed, oldest first. */
  listByProvider(conn: Conn, providerId: number) {
    return conn
      .select()
      .from(hosts)
      .where(and(eq(hosts.providerId, providerId), isNull(hosts.removedAt)))
      .orderBy(asc(hosts.createdAt), asc(hosts.id));
  },

  async countByProvider(conn: Conn, providerId: number): Promise<number> {
    const [row] = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(hosts)
      .where(and(eq(hosts.providerId, providerId), isNull(hosts.removedAt)));
    return row?.n ?? 0;
  },

  /** The provider's host with this id, not removed; null for anyone else's. */
  async findOwned(conn: Conn, providerId: number, id: string, lock = false) {
    const query = conn
      .select()
      .from(hosts)
      .where(and(eq(hosts.id, id), eq(hosts.providerId, providerId), isNull(hosts.removedAt)))
      .limit(1);
    const rows = lock ? await query.for('update') : await query;
    return rows[0] ?? null;
  },

  async insert(conn: Conn, values: typeof hosts.$inferInsert) {
    const [row] = await conn.insert(hosts).values(values).returning();
    if (!row) throw new Error('host insert returned nothing');
    return row;
  },

  /** The provider's own host (not removed) with its public address set; null when none. */
  async setPublicHost(conn: Conn, providerId: number, id: string, publicHost: string | null) {
    const [row] = await conn
      .update(hosts)
      .set({ publicHost })
      .where(and(eq(hosts.id, id), eq(hosts.providerId, providerId), isNull(hosts.removedAt)))
      .returning();
    return row ?? null;
  },

  /**
   * The addresses of every other provider's hosts (not removed): their public names and the
   * addresses their agents call from. A provider may not send renters to one of them.
   */
  otherProvidersAddresses(conn: Conn, providerId: number) {
    return conn
      .select({ publicHost: hosts.publicHost, agentAddress: hosts.agentAddress })
      .from(hosts)
      .where(and(ne(hosts.providerId, providerId), isNull(hosts.removedAt)));
  },

  /** Replaces the enrolment token of a host that has not enrolled; null when it has. */
  async setEnrolment(conn: Conn, id: string, tokenHash: string, expiresAt: Date) {
    const [row] = await conn
      .update(hosts)
      .set({ enrolTokenHash: tokenHash, enrolTokenExpiresAt: expiresAt })
      .where(and(eq(hosts.id, id), isNull(hosts.enrolledAt), isNull(hosts.removedAt)))
      .returning();
    return row ?? null;
  },

  /** Removed: kept for history, its credential and token cleared (the agent then gets 401). */
  async markRemoved(conn: Conn, id: string, now: Date) {
    await conn.update(hosts).set(removed(now)).where(eq(hosts.id, id));
  },

  /**
   * Every host of a provider removed at once (its account is closed), except a host that
   * still runs someone's instance: that one stays until the instance ends.
   */
  async removeAllForProvider(conn: Conn, providerId: number, now: Date) {
    await conn
      .update(hosts)
      .set(removed(now))
      .where(
        and(
          eq(hosts.providerId, providerId),
          isNull(hosts.removedAt),
          sql`not exists (select 1 from ${instances} where ${instances.hostId} = ${hosts.id} and ${instances.endTime} is null)`,
        ),
      );
  },

  /** Listings (not removed) and live instances (not ended) on each host. */
  async usage(conn: Conn, ids: string[]): Promise<Map<string, HostUsage>> {
    const result = new Map<string, HostUsage>(
      ids.map((id) => [id, { listings: 0, liveInstances: 0, listingProblems: [] }]),
    );
    if (ids.length === 0) return result;
    const listingRows = await conn
      .select({
        hostId: gpuListings.hostId,
        id: gpuListings.id,
        model: gpuListings.model,
        problem: gpuListings.gpuProblem,
      })
      .from(gpuListings)
      .where(and(inArray(gpuListings.hostId, ids), isNull(gpuListings.removedAt)))
      .orderBy(gpuListings.id);
    const instanceRows = await conn
      .select({ hostId: instances.hostId, n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(inArray(instances.hostId, ids), isNull(instances.endTime)))
      .groupBy(instances.hostId);
    for (const row of listingRows) {
      const entry = row.hostId ? result.get(row.hostId) : undefined;
      if (!entry) continue;
      entry.listings += 1;
      if (row.problem !== null)
        entry.listingProblems.push({ listingId: row.id, model: row.model, problem: row.problem });
    }
    for (const row of instanceRows) {
      const entry = row.hostId ? result.get(row.hostId) : undefined;
      if (entry) entry.liveInstances = row.n;
    }
    return result;
  },

  /** Outages of these hosts that were open at some point after `since`. */
  byIds(conn: Conn, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return conn
      .select({
        id: hosts.id,
        enrolledAt: hosts.enrolledAt,
        offlineSince: hosts.offlineSince,
        lastHeartbeatAt: hosts.lastHeartbeatAt,
      })
      .from(hosts)
      .where(inArray(hosts.id, ids));
  },

  outagesSince(conn: Conn, ids: string[], since: Date) {
    if (ids.length === 0) return Promise.resolve([]);
    return conn
      .select({
        hostId: hostOutages.hostId,
        startedAt: hostOutages.startedAt,
        endedAt: hostOutages.endedAt,
      })
      .from(hostOutages)
      .where(
        and(
          inArray(hostOutages.hostId, ids),
          or(isNull(hostOutages.endedAt), gt(hostOutages.endedAt, since)),
        ),
      );
  },

  /**
   * Renters' minutes not charged on each host in outages open since `since` (docs/decisions/022),
   * as their usage counts them: metered, the minutes let pass; booked, the unreachable time up
   * to the rental's end in whole minutes.
   */
  async notChargedMinutes(
    conn: Conn,
    ids: string[],
    since: Date,
    now: Date,
  ): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const at = sql`${now.toISOString()}::timestamptz`;
    const bookedMinutes = sql`floor(greatest(0, extract(epoch from least(coalesce(${instanceOutages.endedAt}, ${at}), coalesce(${instances.endTime}, ${at})) - ${instanceOutages.startedAt})) / 60)`;
    const rows = await conn
      .select({
        hostId: instanceOutages.hostId,
        minutes: sql<number>`coalesce(sum(case when ${instances.billingPlan} = any(${planArray((c) => c.chargesPerMinute)}::text[]) then ${instanceOutages.minutesNotCharged} else ${bookedMinutes} end), 0)::int`,
      })
      .from(instanceOutages)
      .innerJoin(instances, eq(instances.id, instanceOutages.instanceId))
      .where(
        and(
          inArray(instanceOutages.hostId, ids),
          or(isNull(instanceOutages.endedAt), gt(instanceOutages.endedAt, since)),
        ),
      )
      .groupBy(instanceOutages.hostId);
    return new Map(rows.map((r) => [r.hostId, Number(r.minutes)]));
  },
};
