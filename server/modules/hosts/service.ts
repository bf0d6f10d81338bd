import {
  AGENT_HEARTBEAT_INTERVAL_MS,
  AGENT_OFFLINE_AFTER_MS,
  type EnrollRequest,
  type EnrollResponse,
  type HeartbeatRequest,
  type HeartbeatResponse,
  type InstanceReport,
  type InstanceStatus,
} from '../../../shared/contracts/agent-protocol';
import type { HostImageStatus } from '../../../shared/contracts/images';
import { hostReadiness } from '../../../shared/rules/host-readiness';
import { withoutControlCharacters } from '../../../shared/rules/text';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';
import { notFound, unauthenticated } from '../../lib/errors';
import { createImages, type Images } from '../images/catalogue';
import type { InstancesService } from '../instances/service';
import type { HostReport } from '../instances/types';
import { listingsService } from '../listings/service';
import { canonicalAddress, createAddressPolicy, type HostAddresses } from './address-policy';
import { desiredPage } from './heartbeat-page';
import { guestHostKey } from './host-keys';
import { hostsRepo } from './repo';
import { createHostWake, type HostWake } from './wake';

export type { HostReport } from '../instances/types';

/** A host as its agent's credential identifies it, with the addresses that are its own. */
export interface AgentHost extends HostAddresses {
  id: string;
  providerId: number;
}

/** What the hosts service tells the operator (the app's logger). */
interface HostsLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface HostEvent {
  kind: 'host_offline' | 'host_failed_instances';
  hostId: string;
  providerId: number;
  instanceIds: number[];
}

/** A host's image status as stored: its error is the host's words, kept as plain text. */
const storedImageStatus = (status: HostImageStatus): HostImageStatus => ({
  ...status,
  error: status.error === null ? null : withoutControlCharacters(status.error),
});

/**
 * A gap between the server's own beats this long means it was away (issue 39). The worker
 * beats every pass (WORKER_INTERVAL_MS, 1 s, plus however long a busy pass takes); a shorter
 * gap cannot cost a host three missed heartbeats (30 s apart, offline after 90 s), so it needs
 * no grace — and a slow pass under load is not mistaken for the server being away.
 */
export const SERVER_GAP_MS = 45_000;

/**
 * The seam between hosts and the instance core (docs/decisions/008): hosts call out, the
 * server never calls in. Enrolment spends a one-time token for a credential; a heartbeat
 * records the host's inventory and answers what it should run; a report moves one instance.
 * Whatever a host learns about an instance enters the core through `report`, and only there
 * (the in-process demo host, demo-host.ts, reports through it too).
 */
export function createHostsService(deps: {
  db: Db;
  instances: InstancesService;
  clock: Clock;
  /** What agents are asked to heartbeat at (AGENT_HEARTBEAT_INTERVAL_MS, default 30 s). */
  heartbeatIntervalMs?: number;
  /** How long a host may be silent before it is marked offline (HOST_OFFLINE_AFTER_MS, 90 s). */
  offlineAfterMs?: number;
  /**
   * A gap this long between the server's own beats means the server was away
   * (SERVER_GAP_MS, 45 s; the worker beats every pass).
   */
  serverGapMs?: number;
  onEvent?: (event: HostEvent) => void;
  /**
   * What the marketplace shows of a host's listings changed (it came online or went offline,
   * or a heartbeat changed which of their GPUs can be sold): the cached pages are dropped.
   */
  onListingsChange?: () => void;
  /** Hosts waiting for work between heartbeats (wake.ts); none: waits answer at maxMs. */
  wake?: HostWake;
  /** Addresses every host may report besides its own (HOST_ADDRESS_ALLOWLIST). */
  hostAddressAllowlist?: readonly string[];
  /** Loopback and private addresses allowed (ALLOW_PRIVATE_HOST_ADDRESSES, a lab); false by default. */
  allowPrivateAddresses?: boolean;
  /** The image catalogue (env IMAGE_CATALOGUE); the default one when not given. */
  images?: Images;
  log?: HostsLog;
}) {
  const images = deps.images ?? createImages();
  const heartbeatIntervalMs = deps.heartbeatIntervalMs ?? AGENT_HEARTBEAT_INTERVAL_MS;
  const offlineAfterMs = deps.offlineAfterMs ?? AGENT_OFFLINE_AFTER_MS;
  const serverGapMs = deps.serverGapMs ?? SERVER_GAP_MS;
  const { db, clock } = deps;
  const wake = deps.wake ?? createHostWake();
  const addresses = createAddressPolicy(deps.hostAddressAllowlist ?? [], {
    allowPrivate: deps.allowPrivateAddresses ?? false,
  });
  /** Credential hash → host, for waits (see recognise). */
  const waitingHosts = new Map<string, { hostId: string; until: number }>();

  /** The credential (by its hash) is the host's for the next minute, as waits see it. */
  function remember(hash: string, hostId: string, now: number) {
    if (waitingHosts.size >= 100_000) waitingHosts.clear();
    waitingHosts.set(hash, { hostId, until: now + 60_000 });
  }

  function report(report: HostReport): Promise<{ accepted: boolean; generation: number }> {
    return deps.instances.applyHostReport(report, clock.now());
  }

  /**
   * A ready instance's addresses as the host reports them: only the host's own address
   * reaches renters and the console (docs/decisions/013); a malformed key line or another's
   * address refuses the status (400) before anything moves.
   */
  const connectionOf =
    (host: AgentHost, status: InstanceStatus) => (): HostReport['connection'] => {
      if (status.state !== 'running') return {};
      const { ssh, vnc } = status;
      const hostKey = guestHostKey(status.hostKeys);
      return {
        ...(ssh
          ? {
              sshHost: addresses.accept(host, 'ssh.host', ssh.host),
              sshPort: ssh.port,
              sshUsername: ssh.user,
            }
          : {}),
        ...(vnc
          ? { vncAddress: `${addresses.accept(host, 'vnc.host', vnc.host)}:${vnc.port}` }
          : {}),
        ...(hostKey
          ? { sshHostKey: hostKey.line, sshHostKeyFingerprint: hostKey.fingerprint }
          : {}),
      };
    };

  return {
    report,

    /** The GPU readings of the hosts' last heartbeats, by host id (for instances' usage bars). */
    async gpuReadings(hostIds: string[]) {
      const rows = await hostsRepo.inventories(db, [...new Set(hostIds)]);
      return new Map(
        rows.map((r) => [r.id, { gpus: r.inventory?.gpus.gpus ?? [], at: r.at }] as const),
      );
    },

    /** What the in-process demo host should converge: instances awaiting a transition. */
    desiredState(hostId: string, limit = 100) {
      return deps.instances.pendingOnHost(hostId, limit);
    },

    /** Spends a one-time enrolment token: the host gets a credential (only its hash is kept). */
    async enrol(body: EnrollRequest): Promise<EnrollResponse> {
      const now = clock.now();
      const credential = randomToken(32);
      const host = await db.transaction(async (tx) => {
        const found = await hostsRepo.lockByEnrolToken(tx, sha256(body.token), now);
        if (!found) return null;
        await hostsRepo.enrol(tx, found.id, {
          credentialHash: sha256(credential),
          hostname: body.hostname,
          agentVersion: body.agentVersion,
          at: now,
        });
        return found;
      });
      if (!host) throw unauthenticated('Unknown, expired or spent enrolment token.');
      return { agentId: host.id, credential, heartbeatIntervalMs };
    },

    /**
     * The agent's long poll between heartbeats, for the host `recognise` found: true as soon
     * as an instance on the host changes (or changed since its last heartbeat), false after
     * `maxMs` or when the agent hangs up (`signal`).
     */
    waitForWork(hostId: string, maxMs: number, signal?: AbortSignal): Promise<boolean> {
      return wake.wait(hostId, maxMs, signal);
    },

    /**
     * The host of a waiting agent's credential; 401 when none. Every host holds a wait nearly
     * all the time: a credential is looked up at most once a minute, and not at all while its
     * host heartbeats (each heartbeat is a lookup: it renews the minute); an unknown one is
     * looked up every time. A credential revoked within that minute still passes here: a wait
     * carries no data, so it gains nothing (its heartbeats are refused at once).
     */
    async recognise(credential: string): Promise<string> {
      const hash = sha256(credential);
      const now = clock.now().getTime();
      const known = waitingHosts.get(hash);
      if (known && known.until > now) return known.hostId;
      const host = await hostsRepo.findByCredential(db, hash);
      if (!host) throw unauthenticated('Unknown or revoked agent credential.');
      remember(hash, host.id, now);
      return host.id;
    },

    /** Answers every held wait now (shutdown: a held wait must not delay it). */
    releaseWaits: () => wake.releaseAll(),

    /** The host an agent's credential belongs to; 401 for an unknown or revoked one. */
    async authenticate(credential: string, callerAddress?: string): Promise<AgentHost> {
      const host = await hostsRepo.findByCredential(db, sha256(credential));
      if (!host) throw unauthenticated('Unknown or revoked agent credential.');
      return {
        id: host.id,
        providerId: host.providerId,
        publicHost: host.publicHost,
        agentAddress: host.agentAddress,
        callerAddress: callerAddress ?? null,
      };
    },

    /**
     * A heartbeat: the host is online, its inventory is recorded, a host back from an outage
     * makes its instances reachable again, and the instance core applies the statuses it
     * missed (a lost report), places what is pending and answers what the host should run;
     * this carries that answer, in pages of AGENT_HEARTBEAT_LIST_MAX (desiredPage). One
     * statement both authenticates the credential and records the heartbeat: 401 from there.
     */
    async heartbeat(
      credential: string,
      body: HeartbeatRequest,
      callerAddress?: string,
    ): Promise<HeartbeatResponse> {
      const now = clock.now();
      const readiness = hostReadiness(body.host, body.gpus);
      const hash = sha256(credential);
      const recorded = await hostsRepo.recordHeartbeat(db, hash, {
        at: now,
        agentVersion: body.agentVersion,
        host: body.host,
        gpus: body.gpus,
        images: (body.images ?? []).map(storedImageStatus),
        address: callerAddress ?? null,
        readiness,
      });
      if (!recorded) throw unauthenticated('Unknown or revoked agent credential.');
      remember(hash, recorded.id, now.getTime());
      // A listing sells only GPUs the host still reports (docs/decisions/020) and can serve
      // (docs/decisions/021).
      const gpusChanged = await listingsService.checkHostGpus(
        db,
        recorded.id,
        body.gpus.gpus,
        readiness,
      );
      const host: AgentHost = {
        id: recorded.id,
        providerId: recorded.providerId,
        publicHost: recorded.publicHost,
        agentAddress: callerAddress ?? null,
        callerAddress: callerAddress ?? null,
      };
      // This answer reads every instance as it is now: earlier wakes are answered by it.
      wake.heard(host.id);
      if (recorded.wasOfflineSince) {
        await db.transaction(async (tx) => {
          await hostsRepo.closeOutage(tx, host.id, now);
          await deps.instances.markReachable(tx, host.id, now);
        });
      }
      // A host heard for the first time or back from an outage (its outage closed: the uptime
      // its listings show) is online again in the marketplace; a changed verdict changes what
      // its listings sell ("Host not ready").
      if (gpusChanged || !recorded.wasOnline) deps.onListingsChange?.();
      // What the host should run, from the instance core in one call (its rows read once).
      const desired = await deps.instances.hostHeartbeat(
        {
          hostId: host.id,
          statuses: body.instances,
          inventory: body,
          connectionOf: (status) => connectionOf(host, status)(),
          ...(deps.log ? { log: deps.log } : {}),
        },
        now,
      );
      const publicAddress =
        canonicalAddress(recorded.publicHost) ?? canonicalAddress(callerAddress);
      return {
        ...desiredPage(desired, body.cursor),
        heartbeatIntervalMs,
        ...(publicAddress ? { publicAddress } : {}),
        images: images.catalogue,
      };
    },

    /** One transition of one instance on this host; another host's instance is not found. */
    async agentReport(host: AgentHost, pathId: string, body: InstanceReport) {
      const id = Number(pathId);
      if (pathId !== body.id || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
        throw notFound('Instance');
      }
      const instance = await deps.instances.findOnHost(host.id, id);
      if (!instance) throw notFound('Instance');
      const at = new Date(body.at);
      const now = clock.now();
      // An agent's clock may be off, and a host is untrusted (docs/decisions/013): a transition
      // never happens in the future, nor before the state it leaves began.
      const when = at > now ? now : at < instance.stateChangedAt ? instance.stateChangedAt : at;
      const accepted = await deps.instances.applyHostStatus(instance, body, when, {
        heartbeat: false,
        connection: connectionOf(host, body),
      });
      return { accepted };
    },

    /**
     * Hosts silent for 90 s (offlineAfterMs) go offline: an outage opens (from their last
     * heartbeat), their live instances become unreachable and are not billed from then on.
     */
    async markSilentHostsOffline(now: Date, batch = 100): Promise<number> {
      const before = new Date(now.getTime() - offlineAfterMs);
      // The server's outage is not the host's (issue 39): after a gap in the server's own
      // beat (a stop, a restart, a worker that could not run), every host gets a full grace
      // period from the server's return, and no outage starts before it.
      const resumedAt = await hostsRepo.beatServer(db, now, serverGapMs);
      if (resumedAt > before) return 0;
      const events: HostEvent[] = [];
      const count = await db.transaction(async (tx) => {
        const silent = await hostsRepo.lockSilentHosts(tx, before, batch);
        for (const h of silent) {
          const heard = h.lastHeartbeatAt ?? before;
          const since = heard > resumedAt ? heard : resumedAt;
          await hostsRepo.markOffline(tx, h.id, since, now);
          const hit = await deps.instances.markUnreachable(tx, h.id, since);
          events.push({
            kind: 'host_offline',
            hostId: h.id,
            providerId: h.providerId,
            instanceIds: hit.map((i) => i.id),
          });
        }
        return silent.length;
      });
      for (const event of events) deps.onEvent?.(event);
      if (count > 0) deps.onListingsChange?.();
      return count;
    },
  };
}

export type HostsService = ReturnType<typeof createHostsService>;
