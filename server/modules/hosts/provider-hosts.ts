import { randomUUID } from 'node:crypto';
import {
  type CreateHostBody,
  createHostBody,
  ENROLMENT_TOKEN_TTL_MS,
  type Enrolment,
  type HostView,
  installCommand,
  UPTIME_WINDOW_MS,
} from '../../../shared/contracts/hosts';
import type { Conn, Db, Tx } from '../../db/client';
import type { Host } from '../../db/schema';
import { bindDb } from '../../lib/bind-db';
import { randomToken, sha256 } from '../../lib/crypto';
import { conflict, hostInUse, limitReached, notAProvider, notFound } from '../../lib/errors';
import { providersService } from '../providers/service';
import { hostStatus, hostUptimePercent, presentHost } from './presenter';
import { providerHostsRepo } from './provider-hosts-repo';
import { checkPublicHost, type HostTargets } from './public-host-check';
import { hostsRepo } from './repo';

/** Hosts one provider may have at a time (removed ones do not count). */
export const MAX_HOSTS_PER_PROVIDER = 100;

async function providerIdOf(conn: Conn, userId: string): Promise<number> {
  const providerId = await providersService.providerIdOf(conn, userId);
  if (providerId === null) throw notAProvider();
  return providerId;
}

/** A fresh one-time token: the caller sees it once, the database keeps its hash. */
function newEnrolment(now: Date) {
  const token = randomToken(32);
  return {
    token,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + ENROLMENT_TOKEN_TTL_MS),
  };
}

/**
 * When the server last came back after a gap of its own (issue 39), read only when it could
 * matter: some host is silent past the offline limit and not yet marked offline. Pages of
 * heartbeating hosts (the marketplace's) pay no query for it.
 */
async function resumedIfSilent(
  conn: Conn,
  rows: Pick<Host, 'enrolledAt' | 'offlineSince' | 'lastHeartbeatAt'>[],
  now: Date,
): Promise<Date | null> {
  const silent = rows.some((h) => hostStatus(h, now) === 'offline' && h.offlineSince === null);
  return silent ? hostsRepo.serverResumedAt(conn) : null;
}

async function present(conn: Conn, rows: Host[], now: Date): Promise<HostView[]> {
  const ids = rows.map((h) => h.id);
  const since = new Date(now.getTime() - UPTIME_WINDOW_MS);
  const [usage, outages, notCharged, serverResumedAt] = await Promise.all([
    providerHostsRepo.usage(conn, ids),
    providerHostsRepo.outagesSince(conn, ids, since),
    providerHostsRepo.notChargedMinutes(conn, ids, since, now),
    resumedIfSilent(conn, rows, now),
  ]);
  return rows.map((host) =>
    presentHost(host, {
      now,
      serverResumedAt,
      outages: outages.filter((o) => o.hostId === host.id),
      usage: usage.get(host.id) ?? { listings: 0, liveInstances: 0, listingProblems: [] },
      notChargedMinutes: notCharged.get(host.id) ?? 0,
    }),
  );
}

async function presentOne(conn: Conn, host: Host, now: Date): Promise<HostView> {
  const [view] = await present(conn, [host], now);
  if (!view) throw new Error('host view missing');
  return view;
}

/**
 * The provider dashboard's hosts (shared/contracts/hosts.ts). Only a user with a provider
 * profile may use them (else 403 NOT_A_PROVIDER); another provider's host is 404, as if it
 * did not exist. `publicUrl` (PUBLIC_URL) is where the install command fetches the installer.
 */
export const providerHostsService = {
  async list(db: Db, userId: string, now: Date): Promise<HostView[]> {
    const providerId = await providerIdOf(db, userId);
    return present(db, await providerHostsRepo.listByProvider(db, providerId), now);
  },

  async create(
    db: Db,
    userId: string,
    body: CreateHostBody,
    publicUrl: string,
    now: Date,
  ): Promise<{ host: HostView; enrolment: Enrolment }> {
    const enrolment = newEnrolment(now);
    const host = await db.transaction(async (tx) => {
      const providerId = await providerIdOf(tx, userId);
      if ((await providerHostsRepo.countByProvider(tx, providerId)) >= MAX_HOSTS_PER_PROVIDER)
        throw limitReached('hosts', MAX_HOSTS_PER_PROVIDER);
      return providerHostsRepo.insert(tx, {
        id: randomUUID(),
        providerId,
        name: body.name.trim(),
        publicHost: createHostBody.shape.publicHost.parse(body.publicHost) ?? null,
        enrolTokenHash: enrolment.tokenHash,
        enrolTokenExpiresAt: enrolment.expiresAt,
        createdAt: now,
      });
    });
    return {
      host: await presentOne(db, host, now),
      enrolment: shown(enrolment, publicUrl),
    };
  },

  /** A new token for a host that has not enrolled yet; the previous one stops working. */
  async newEnrolment(
    db: Db,
    userId: string,
    hostId: string,
    publicUrl: string,
    now: Date,
  ): Promise<{ host: HostView; enrolment: Enrolment }> {
    const enrolment = newEnrolment(now);
    const host = await db.transaction(async (tx) => {
      const providerId = await providerIdOf(tx, userId);
      const owned = await providerHostsRepo.findOwned(tx, providerId, hostId, true);
      if (!owned) throw notFound('Host');
      if (owned.enrolledAt) {
        throw conflict(
          'This host has already enrolled. To connect another machine, add a new host.',
        );
      }
      const updated = await providerHostsRepo.setEnrolment(
        tx,
        hostId,
        enrolment.tokenHash,
        enrolment.expiresAt,
      );
      if (!updated) throw conflict('This host has already enrolled.');
      return updated;
    });
    return {
      host: await presentOne(db, host, now),
      enrolment: shown(enrolment, publicUrl),
    };
  },

  /**
   * Sets the address renters connect to (or clears it). Instances already running keep the
   * address they reported; the host's next reports must name this one or its own.
   */
  async setPublicHost(
    db: Db,
    userId: string,
    hostId: string,
    publicHost: string | null,
    now: Date,
  ): Promise<HostView> {
    const providerId = await providerIdOf(db, userId);
    const updated = await providerHostsRepo.setPublicHost(db, providerId, hostId, publicHost);
    if (!updated) throw notFound('Host');
    return presentOne(db, updated, now);
  },

  /**
   * Removes a host that no listing (not removed) and no live instance uses; 409 HOST_IN_USE
   * otherwise. Its credential is cleared, so its agent is refused from then on.
   */
  async remove(db: Db, userId: string, hostId: string, now: Date): Promise<void> {
    await db.transaction(async (tx) => {
      const providerId = await providerIdOf(tx, userId);
      const owned = await providerHostsRepo.findOwned(tx, providerId, hostId, true);
      if (!owned) throw notFound('Host');
      const usage = (await providerHostsRepo.usage(tx, [hostId])).get(hostId);
      if (usage && (usage.listings > 0 || usage.liveInstances > 0)) {
        throw hostInUse({ listings: usage.listings, liveInstances: usage.liveInstances });
      }
      await providerHostsRepo.markRemoved(tx, hostId, now);
    });
  },

  /** Each host's uptime score over the last 30 days (the marketplace shows it on listings). */
  async uptimeOf(conn: Conn, hostIds: string[], now: Date): Promise<Map<string, number | null>> {
    const ids = [...new Set(hostIds)];
    const [rows, outages] = await Promise.all([
      providerHostsRepo.byIds(conn, ids),
      providerHostsRepo.outagesSince(conn, ids, new Date(now.getTime() - UPTIME_WINDOW_MS)),
    ]);
    const serverResumedAt = await resumedIfSilent(conn, rows, now);
    return new Map(
      rows.map((host) => [
        host.id,
        hostUptimePercent(
          host,
          outages.filter((o) => o.hostId === host.id),
          now,
          serverResumedAt,
        ),
      ]),
    );
  },

  /** For listings: whether the host is this provider's and not removed. */
  async ownsHost(conn: Conn, providerId: number, hostId: string): Promise<boolean> {
    return (await providerHostsRepo.findOwned(conn, providerId, hostId)) !== null;
  },

  /** Closing an account: its provider's idle hosts are removed and their agents refused. */
  async removeAllForUser(tx: Tx, userId: string, now: Date): Promise<void> {
    const providerId = await providersService.providerIdOf(tx, userId);
    if (providerId !== null) await providerHostsRepo.removeAllForProvider(tx, providerId, now);
  },
};

function shown(enrolment: ReturnType<typeof newEnrolment>, publicUrl: string): Enrolment {
  return {
    token: enrolment.token,
    expiresAt: enrolment.expiresAt.toISOString(),
    installCommand: installCommand(publicUrl, enrolment.token),
  };
}

/**
 * The provider dashboard's hosts (app.deps.providerHosts): the database bound, and a public
 * name checked against the address rule before it is stored (public-host-check.ts).
 */
export function createProviderHostsService(db: Db, targets: HostTargets) {
  const bound = bindDb(db, providerHostsService, [
    'list',
    'create',
    'newEnrolment',
    'setPublicHost',
    'remove',
  ]);
  const check = async (userId: string, publicHost: string | null | undefined) => {
    if (publicHost) await checkPublicHost(db, await providerIdOf(db, userId), publicHost, targets);
  };
  return {
    ...bound,
    async create(userId: string, body: CreateHostBody, publicUrl: string, now: Date) {
      await check(userId, createHostBody.shape.publicHost.parse(body.publicHost));
      return bound.create(userId, body, publicUrl, now);
    },
    async setPublicHost(userId: string, hostId: string, publicHost: string | null, now: Date) {
      await check(userId, publicHost);
      return bound.setPublicHost(userId, hostId, publicHost, now);
    },
  };
}

export type ProviderHostsService = ReturnType<typeof createProviderHostsService>;
