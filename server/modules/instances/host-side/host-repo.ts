import { and, eq, inArray, isNull, or, type Placeholder, sql } from 'drizzle-orm';
import type { ProvisioningProgress } from '../../../../shared/contracts/images';
import { ON_HOST_STATES, ON_THE_WAY_STATES } from '../../../../shared/rules/instance-lifecycle';
import { withoutControlCharacters } from '../../../../shared/rules/text';
import type { Conn } from '../../../db/client';
import { compiled } from '../../../db/compiled';
import { instances } from '../../../db/schema';
import type { Instance } from '../repo-rows';
import { outagesRepo } from './outages-repo';

/** What placement fills in on one row (commands/place.ts). */
export type Placement = { id: number } & Partial<
  Pick<Instance, 'vncPassword' | 'sshPublicKeys' | 'gpuIndexes'>
>;

/** Instances a host must know about: everything placed there until the host let it go. */
const onHostCondition = (hostId: string | Placeholder) =>
  and(
    eq(instances.hostId, hostId),
    // Implies the partial index instances_on_host_idx's predicate.
    isNull(instances.hostReleasedAt),
    or(
      inArray(instances.status, ON_HOST_STATES),
      and(eq(instances.status, 'failed'), isNull(instances.hostReleasedAt)),
    ),
  );

/** Every heartbeat's read (built once: server/db/compiled.ts). */
const instancesOnHostStatement = compiled('hosts_instances_on_host', (conn) =>
  conn
    .select()
    .from(instances)
    .where(onHostCondition(sql.placeholder('hostId')))
    .orderBy(instances.id),
);

/**
 * Instances as their hosts see them: the heartbeat's list, one host's instance, and the
 * columns only a host's word changes (placement, progress, errors, reachability).
 */
export const hostInstancesRepo = {
  /** Every instance a host must converge or keep (see onHostCondition). */
  async onHost(conn: Conn, hostId: string): Promise<Instance[]> {
    return instancesOnHostStatement(conn, { hostId });
  },

  /**
   * These of a host's rows as they are now (a heartbeat's statuses changed them): those still
   * on the host (see onHostCondition), in order of id.
   */
  async onHostByIds(conn: Conn, hostId: string, ids: readonly number[]): Promise<Instance[]> {
    if (ids.length === 0) return [];
    return conn
      .select()
      .from(instances)
      .where(and(onHostCondition(hostId), inArray(instances.id, [...ids])))
      .orderBy(instances.id);
  },

  /** The instance if it is placed on this host (a report for another host's is refused). */
  async findOnHost(conn: Conn, hostId: string, instanceId: number) {
    const rows = await conn
      .select()
      .from(instances)
      .where(and(eq(instances.id, instanceId), eq(instances.hostId, hostId)));
    return rows[0] ?? null;
  },

  /**
   * What placement filled in, for every row it changed in one statement: GPU indexes, the
   * renter's keys, a VNC password (a field left out stays as it is).
   */
  async place(conn: Conn, placed: readonly Placement[]) {
    if (placed.length === 0) return;
    const values = placed.map((p) => ({
      id: p.id,
      vnc_password: p.vncPassword ?? null,
      ssh_public_keys: p.sshPublicKeys ?? null,
      gpu_indexes: p.gpuIndexes ?? null,
    }));
    await conn.execute(sql`
      update ${instances} set
        vnc_password = coalesce(v.vnc_password, ${instances.vncPassword}),
        ssh_public_keys = coalesce(v.ssh_public_keys, ${instances.sshPublicKeys}),
        gpu_indexes = coalesce(v.gpu_indexes, ${instances.gpuIndexes})
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
        as v(id int, vnc_password text, ssh_public_keys jsonb, gpu_indexes jsonb)
      where ${instances.id} = v.id`);
  },

  async release(conn: Conn, instanceId: number, at: Date) {
    await conn
      .update(instances)
      .set({ hostReleasedAt: at })
      .where(and(eq(instances.id, instanceId), isNull(instances.hostReleasedAt)));
  },

  /**
   * Where a provisioning or starting instance is on its way, as its host reports it: only at
   * the generation the host acted on and while it is still on its way (a stale entry is lost).
   */
  async recordProgress(
    conn: Conn,
    instanceId: number,
    generation: number,
    progress: ProvisioningProgress | null,
  ) {
    await conn
      .update(instances)
      .set({ provisioningProgress: progress })
      .where(
        and(
          eq(instances.id, instanceId),
          eq(instances.generation, generation),
          inArray(instances.status, ON_THE_WAY_STATES),
        ),
      );
  },

  /** A host's own words on why an instance failed: shown to the renter as text, never run. */
  async recordHostError(conn: Conn, instanceId: number, error: string | null) {
    const text = error === null ? null : withoutControlCharacters(error);
    await conn.update(instances).set({ hostError: text }).where(eq(instances.id, instanceId));
  },

  /**
   * The digest a container's host resolved its image to (docs/decisions/025), for the run it
   * reported (its generation); a VM's row is never touched.
   */
  async recordImageDigest(conn: Conn, instanceId: number, generation: number, digest: string) {
    await conn
      .update(instances)
      .set({ imageDigest: digest })
      .where(
        and(
          eq(instances.id, instanceId),
          eq(instances.generation, generation),
          eq(instances.kind, 'container'),
          isNull(instances.endTime),
        ),
      );
  },

  /** Live instances on a host that went dark are unreachable from `at` (not billed). */
  async markUnreachable(conn: Conn, hostId: string, at: Date) {
    const hit = await conn
      .update(instances)
      .set({ unreachableSince: at })
      .where(
        and(
          eq(instances.hostId, hostId),
          isNull(instances.endTime),
          isNull(instances.unreachableSince),
        ),
      )
      .returning({ id: instances.id, userId: instances.userId, providerId: instances.providerId });
    await outagesRepo.open(
      conn,
      hostId,
      hit.map((i) => i.id),
      at,
    );
    return hit;
  },

  /** Back in touch: the unreachable time is added up (booked: refunded at settlement). */
  async markReachable(conn: Conn, hostId: string, at: Date) {
    await conn.execute(sql`
      update ${instances} set
        unreachable_seconds = unreachable_seconds
          + greatest(0, floor(extract(epoch from (${at.toISOString()}::timestamptz - unreachable_since))))::int,
        unreachable_since = null
      where host_id = ${hostId} and unreachable_since is not null`);
    await outagesRepo.close(conn, hostId, at);
  },
};
