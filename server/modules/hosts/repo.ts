import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { GpuInventory, HostInventory } from '../../../shared/contracts/agent-protocol';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { HostImageStatus } from '../../../shared/contracts/images';
import type { Conn } from '../../db/client';
import { hostOutages, hosts, serverLiveness } from '../../db/schema';

export const hostsRepo = {
  /** The last inventory each host reported (its GPUs' nvidia-smi readings) and when. */
  async inventories(conn: Conn, ids: string[]) {
    if (ids.length === 0) return [];
    return conn
      .select({ id: hosts.id, inventory: hosts.inventory, at: hosts.lastHeartbeatAt })
      .from(hosts)
      .where(inArray(hosts.id, ids));
  },

  /**
   * The host an unspent, unexpired enrolment token belongs to, locked. A token stays good
   * until the host's first heartbeat, so an agent whose enrol answer was lost can enrol again
   * (and the first credential dies); from the first heartbeat on it is spent.
   */
  async lockByEnrolToken(conn: Conn, tokenHash: string, now: Date) {
    const rows = await conn
      .select()
      .from(hosts)
      .where(
        and(
          eq(hosts.enrolTokenHash, tokenHash),
          or(isNull(hosts.enrolledAt), eq(hosts.heartbeatCount, 0)),
          isNull(hosts.removedAt),
          gt(hosts.enrolTokenExpiresAt, now),
        ),
      )
      .for('update');
    return rows[0] ?? null;
  },

  async enrol(
    conn: Conn,
    id: string,
    values: { credentialHash: string; hostname: string; agentVersion: string; at: Date },
  ) {
    await conn
      .update(hosts)
      .set({
        credentialHash: values.credentialHash,
        hostname: values.hostname,
        agentVersion: values.agentVersion,
        enrolledAt: values.at,
        // It just called: online until it misses its heartbeats.
        lastHeartbeatAt: values.at,
      })
      .where(eq(hosts.id, id));
  },

  async findByCredential(conn: Conn, credentialHash: string) {
    const rows = await conn
      .select({
        id: hosts.id,
        providerId: hosts.providerId,
        offlineSince: hosts.offlineSince,
        publicHost: hosts.publicHost,
        agentAddress: hosts.agentAddress,
      })
      .from(hosts)
      .where(and(eq(hosts.credentialHash, credentialHash), isNull(hosts.removedAt)));
    return rows[0] ?? null;
  },

  /**
   * Authenticates and records a heartbeat in one statement: the host whose credential hash
   * matches (not removed) is online now with this inventory, calling from `address`. Answers
   * null for an unknown credential, and when the host had been offline, since when (the caller
   * closes the outage).
   */
  async recordHeartbeat(
    conn: Conn,
    credentialHash: string,
    values: {
      at: Date;
      agentVersion: string;
      host: HostInventory;
      gpus: GpuInventory;
      images: HostImageStatus[];
      address: string | null;
      /** shared/rules/host-readiness.ts's verdict on this heartbeat. */
      readiness: HostReadiness;
    },
  ): Promise<{
    id: string;
    providerId: number;
    publicHost: string | null;
    wasOfflineSince: Date | null;
    /** Heard before and not offline: the marketplace already showed it online. */
    wasOnline: boolean;
  } | null> {
    const result = await conn.execute(sql`
      update ${hosts} h set
        last_heartbeat_at = ${values.at.toISOString()}::timestamptz,
        agent_version = ${values.agentVersion},
        hostname = ${values.host.hostname},
        agent_address = coalesce(${values.address}::text, h.agent_address),
        accelerator = ${values.host.accelerator},
        inventory = ${JSON.stringify({ host: values.host, gpus: values.gpus, images: values.images })}::jsonb,
        readiness = ${JSON.stringify(values.readiness)}::jsonb,
        heartbeat_count = h.heartbeat_count + 1,
        offline_since = null,
        enrol_token_hash = null,
        enrol_token_expires_at = null
      from (select id, offline_since, last_heartbeat_at from ${hosts}
        where credential_hash = ${credentialHash} and removed_at is null for update) as before
      where h.id = before.id
      returning h.id as "id", h.provider_id as "providerId", h.public_host as "publicHost",
        before.offline_since as "wasOfflineSince",
        (before.offline_since is null and before.last_heartbeat_at is not null) as "wasOnline"`);
    const row = (
      result as unknown as {
        rows: {
          id: string;
          providerId: number;
          publicHost: string | null;
          wasOfflineSince: string | Date | null;
          wasOnline: boolean;
        }[];
      }
    ).rows[0];
    if (!row) return null;
    const was = row.wasOfflineSince;
    return {
      id: row.id,
      providerId: Number(row.providerId),
      publicHost: row.publicHost,
      wasOfflineSince: was === null ? null : new Date(was),
      wasOnline: row.wasOnline === true,
    };
  },

  /** Enrolled hosts silent since `before` that are not marked offline yet, locked. */
  async lockSilentHosts(conn: Conn, before: Date, limit: number) {
    return conn
      .select({
        id: hosts.id,
        providerId: hosts.providerId,
        lastHeartbeatAt: hosts.lastHeartbeatAt,
      })
      .from(hosts)
      .where(
        and(
          isNull(hosts.offlineSince),
          isNull(hosts.removedAt),
          sql`${hosts.enrolledAt} is not null`,
          lt(sql`coalesce(${hosts.lastHeartbeatAt}, ${hosts.enrolledAt})`, before),
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  async markOffline(conn: Conn, id: string, since: Date, at: Date) {
    await conn.update(hosts).set({ offlineSince: at }).where(eq(hosts.id, id));
    await conn.insert(hostOutages).values({ hostId: id, startedAt: since }).onConflictDoNothing();
  },

  async closeOutage(conn: Conn, id: string, at: Date) {
    await conn
      .update(hostOutages)
      .set({ endedAt: at })
      .where(and(eq(hostOutages.hostId, id), isNull(hostOutages.endedAt)));
  },

  /**
   * The server's own heartbeat (issue 39, part 2), one statement: the last beat moves to
   * `now`, and when the one before is older than `gapMs` (or there was none: a first start),
   * the server counts as resumed at `now`. A beat stored more than `gapMs` in the future (a
   * clock that went back, or the demo seed's worker run ahead of time) is not believed: that
   * too counts as resumed now. Answers when it last resumed (never after `now`).
   */
  async beatServer(conn: Conn, now: Date, gapMs: number): Promise<Date> {
    const at = now.toISOString();
    const gapStart = new Date(now.getTime() - gapMs).toISOString();
    const gapEnd = new Date(now.getTime() + gapMs).toISOString();
    const [row] = await conn
      .insert(serverLiveness)
      .values({ id: true, lastBeatAt: now, resumedAt: now })
      .onConflictDoUpdate({
        target: serverLiveness.id,
        set: {
          resumedAt: sql`case when ${serverLiveness.lastBeatAt} < ${gapStart}::timestamptz
              or ${serverLiveness.lastBeatAt} > ${gapEnd}::timestamptz
            then ${at}::timestamptz else least(${serverLiveness.resumedAt}, ${at}::timestamptz) end`,
          lastBeatAt: sql`case when ${serverLiveness.lastBeatAt} > ${gapEnd}::timestamptz
            then ${at}::timestamptz else greatest(${serverLiveness.lastBeatAt}, ${at}::timestamptz) end`,
        },
      })
      .returning({ resumedAt: serverLiveness.resumedAt });
    if (!row) throw new Error('server_liveness: no row');
    return row.resumedAt;
  },

  /** When the server last resumed after a gap (null: it never beat). */
  async serverResumedAt(conn: Conn): Promise<Date | null> {
    const [row] = await conn
      .select({ resumedAt: serverLiveness.resumedAt })
      .from(serverLiveness)
      .limit(1);
    return row?.resumedAt ?? null;
  },
};
