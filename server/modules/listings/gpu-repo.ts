import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { ReportedGpu } from '../../../shared/rules/gpu-binding';
import { GPU_HOLDING_STATES } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiled } from '../../db/compiled';
import { gpuListings, hosts, instances } from '../../db/schema';
import { stateList } from '../../db/states';

/** The pool a listing's instances take their GPUs from, and what they are chosen by. */
export interface GpuPool {
  id: number;
  model: string;
  hostId: string | null;
  isDemoHost: boolean;
  totalCount: number;
  hostGpuIndexes: number[];
}

/**
 * A pool whose lock the caller's transaction already holds: the statement that took the
 * listing's unit took it too (TAKEN_POOL_SQL), after the listing's row, the order every rent
 * keeps. Only such a statement's row makes one (takenPool).
 */
export type TakenPool = GpuPool & { readonly locked: true };

/** lockPool's key, as SQL on a row of gpu_listings: its host, or the demo listing itself. */
const POOL_KEY = `'gpu-pool:' || coalesce(gpu_listings.host_id, 'listing:' || gpu_listings.id)`;

/**
 * Columns for the RETURNING of a statement that takes one of a listing's units: the pool it
 * draws from, and its lock taken then and there (one round trip fewer for lockPool and one
 * for listingOf on every rent, VM create and start). The lock is taken after the listing's
 * row, as lockPool after a reserve always did.
 */
export const TAKEN_POOL_SQL = `gpu_listings.model as pool_model,
      gpu_listings.host_id as pool_host_id, gpu_listings.is_demo_host as pool_is_demo_host,
      gpu_listings.total_count as pool_total_count,
      gpu_listings.host_gpu_indexes as pool_host_gpu_indexes,
      pg_advisory_xact_lock(hashtext(${POOL_KEY})) as pool_locked`;

/** The pool's lock alone, for a statement that answers the pool's columns its own way. */
export const POOL_LOCK_SQL = `pg_advisory_xact_lock(hashtext(${POOL_KEY}))`;

/** The pool columns of TAKEN_POOL_SQL, as PostgreSQL sends them. */
export interface TakenPoolRow {
  pool_model: string;
  pool_host_id: string | null;
  pool_is_demo_host: boolean;
  pool_total_count: number;
  pool_host_gpu_indexes: number[];
}

/** The pool of a row that TAKEN_POOL_SQL answered (its lock held by the caller's transaction). */
export const takenPool = (listingId: number, row: TakenPoolRow): TakenPool => ({
  id: listingId,
  model: row.pool_model,
  hostId: row.pool_host_id,
  isDemoHost: row.pool_is_demo_host,
  totalCount: row.pool_total_count,
  hostGpuIndexes: row.pool_host_gpu_indexes,
  locked: true,
});

/** A heartbeat's GPUs as the binding reads them (null before its first heartbeat, or no host). */
export function reportedGpus(
  gpus: readonly { index: number; name: string }[] | null | undefined,
): ReportedGpu[] | null {
  return gpus ? gpus.map((g) => ({ index: g.index, name: g.name })) : null;
}

/** A host row's reported GPUs (null before its first heartbeat, or no host) and verdict. */
function hostGpusOf(
  row:
    | { inventory: typeof hosts.$inferSelect.inventory; readiness: HostReadiness | null }
    | undefined,
): { reported: ReportedGpu[] | null; readiness: HostReadiness | null } {
  return {
    reported: reportedGpus(row?.inventory?.gpus.gpus),
    readiness: row?.readiness ?? null,
  };
}

/**
 * A host pool's reported GPUs, verdict and the indexes its other instances hold (hostPool), and
 * a demo listing's held indexes (usedGpus): on every rent, so built once (server/db/compiled.ts).
 */
const hostPoolStatement = compiled('gpu_host_pool', (conn: Conn) =>
  conn
    .select({
      inventory: hosts.inventory,
      readiness: hosts.readiness,
      used: sql<number[][]>`(select coalesce(jsonb_agg(${instances.gpuIndexes}), '[]'::jsonb)
          from ${instances} where ${and(
            eq(instances.hostId, sql.placeholder('hostId')),
            sql`${instances.status} in ${stateList(GPU_HOLDING_STATES)}`,
            ne(instances.id, sql.placeholder('exceptInstanceId')),
          )})`,
    })
    .from(hosts)
    .where(and(eq(hosts.id, sql.placeholder('hostId')), isNull(hosts.removedAt)))
    .limit(1),
);

const usedGpusStatement = compiled('gpu_used_on_listing', (conn: Conn) =>
  conn
    .select({ indexes: instances.gpuIndexes })
    .from(instances)
    .where(
      and(
        eq(instances.gpuListingId, sql.placeholder('listingId')),
        sql`${instances.status} in ${stateList(GPU_HOLDING_STATES)}`,
        ne(instances.id, sql.placeholder('exceptInstanceId')),
      ),
    ),
);

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
    return hostGpusOf(row);
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

  /**
   * A host pool as an instance's GPU is chosen from it, in one statement: the GPUs the host
   * reported and its verdict (as hostGpus), and the indexes its other instances hold. Call
   * it under the pool's lock.
   */
  async hostPool(conn: Conn, hostId: string, exceptInstanceId: number) {
    const [row] = await hostPoolStatement(conn, { hostId, exceptInstanceId });
    return { ...hostGpusOf(row), used: new Set((row?.used ?? []).flat()) };
  },

  /** What an instance's GPU is chosen from: its listing's model, host and GPUs. */
  async listingOf(conn: Conn, id: number): Promise<GpuPool | null> {
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

  /** GPU indexes other instances of a demo listing hold (its own machines: its pool). */
  async usedGpus(conn: Conn, listingId: number, exceptInstanceId: number): Promise<Set<number>> {
    const rows = await usedGpusStatement(conn, { listingId, exceptInstanceId });
    return new Set(rows.flatMap((r) => r.indexes));
  },
};
