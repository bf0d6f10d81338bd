import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { ReportedGpu } from '../../../shared/rules/gpu-binding';
import type { InstanceState } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { gpuListings, hosts, instances } from '../../db/schema';

/**
 * States in which an instance has its GPU on the host (docs/decisions/020): a stopping or
 * terminating one still holds it until its host says it let go.
 */
export const GPU_HOLDING_STATES: readonly InstanceState[] = [
  'provisioning',
  'starting',
  'running',
  'stopping',
  'terminating',
];

/** The queries that bind listings and instances to a host's GPUs (docs/decisions/020). */
export const gpuRepo = {
  /**
   * Serialises everything that hands out a pool's GPUs (a host's, or a demo listing's) until
   * the caller's transaction ends. An advisory lock, so heartbeats never wait for a rent.
   */
  async lockPool(conn: Conn, key: string): Promise<void> {
    await conn.execute(sql`select pg_advisory_xact_lock(hashtext(${`gpu-pool:${key}`}))`);
  },

  /**
   * The GPUs the host's last heartbeat reported (null before its first, or an unknown host)
   * and its readiness verdict (which GPUs can serve a VM; null before its first).
   */
  async hostGpus(
    conn: Conn,
    hostId: string,
  ): Promise<{ reported: ReportedGpu[] | null; readiness: HostReadiness | null }> {
    const [row] = await conn
      .select({ inventory: hosts.inventory, readiness: hosts.readiness })
      .from(hosts)
      .where(and(eq(hosts.id, hostId), isNull(hosts.removedAt)))
      .limit(1);
    const gpus = row?.inventory?.gpus.gpus;
    return {
      reported: gpus ? gpus.map((g) => ({ index: g.index, name: g.name })) : null,
      readiness: row?.readiness ?? null,
    };
  },

  /** The listings on a host (not removed), but `exceptId`, and the GPUs each sells. */
  listingsOnHost(conn: Conn, hostId: string, exceptId: number | null = null) {
    return conn
      .select({
        id: gpuListings.id,
        model: gpuListings.model,
        hostGpuIndexes: gpuListings.hostGpuIndexes,
        gpuProblem: gpuListings.gpuProblem,
        unreadyGpus: gpuListings.unreadyGpus,
      })
      .from(gpuListings)
      .where(
        and(
          eq(gpuListings.hostId, hostId),
          isNull(gpuListings.removedAt),
          exceptId === null ? undefined : ne(gpuListings.id, exceptId),
        ),
      );
  },

  async setGpuState(
    conn: Conn,
    id: number,
    state: { gpuProblem: string | null; unreadyGpus: number },
  ) {
    await conn.update(gpuListings).set(state).where(eq(gpuListings.id, id));
  },

  /** What an instance's GPU is chosen from: its listing's model, host and GPUs. */
  async listingOf(conn: Conn, id: number) {
    const [row] = await conn
      .select({
        id: gpuListings.id,
        model: gpuListings.model,
        hostId: gpuListings.hostId,
        isDemoHost: gpuListings.isDemoHost,
        totalCount: gpuListings.totalCount,
        hostGpuIndexes: gpuListings.hostGpuIndexes,
      })
      .from(gpuListings)
      .where(eq(gpuListings.id, id))
      .limit(1);
    return row ?? null;
  },

  /**
   * GPU indexes other instances hold: on the host, or (`listingId`, the demo host's
   * machines) of the listing.
   */
  async usedGpus(
    conn: Conn,
    where: { hostId: string } | { listingId: number },
    exceptInstanceId: number,
  ): Promise<Set<number>> {
    const rows = await conn
      .select({ indexes: instances.gpuIndexes })
      .from(instances)
      .where(
        and(
          'hostId' in where
            ? eq(instances.hostId, where.hostId)
            : eq(instances.gpuListingId, where.listingId),
          inArray(instances.status, [...GPU_HOLDING_STATES]),
          ne(instances.id, exceptInstanceId),
        ),
      );
    return new Set(rows.flatMap((r) => r.indexes));
  },

  async setInstanceGpus(conn: Conn, instanceId: number, indexes: number[]) {
    await conn.update(instances).set({ gpuIndexes: indexes }).where(eq(instances.id, instanceId));
  },
};
