import { AGENT_OFFLINE_AFTER_MS } from '../../../shared/contracts/agent-protocol';
import { type HostStatus, type HostView, UPTIME_WINDOW_MS } from '../../../shared/contracts/hosts';
import { marketplaceModelOf } from '../../../shared/gpu-names';
import { downtime, type OutagePeriod, uptimePercent } from '../../../shared/rules/uptime';
import type { Host } from '../../db/schema';
import type { HostUsage } from './provider-hosts-repo';

/**
 * awaiting_enrolment until the agent enrols; then offline when the worker marked it so
 * (offline_since) or it has been silent for AGENT_OFFLINE_AFTER_MS (the worker may not have
 * run yet); online otherwise.
 */
export function hostStatus(
  host: Pick<Host, 'enrolledAt' | 'offlineSince' | 'lastHeartbeatAt'>,
  now: Date,
  serverResumedAt: Date | null = null,
): HostStatus {
  if (!host.enrolledAt) return 'awaiting_enrolment';
  if (host.offlineSince) return 'offline';
  const last = silentSince(host, serverResumedAt) ?? host.enrolledAt;
  return now.getTime() - last.getTime() > AGENT_OFFLINE_AFTER_MS ? 'offline' : 'online';
}

/**
 * When the host's silence began as far as it is the host's: its last heartbeat, or the
 * server's own return after a gap (issue 39: the server's outage is not the host's).
 */
function silentSince(
  host: Pick<Host, 'enrolledAt' | 'lastHeartbeatAt'>,
  serverResumedAt: Date | null,
): Date | null {
  const heard = host.lastHeartbeatAt ?? host.enrolledAt;
  if (heard === null || serverResumedAt === null) return heard;
  return heard > serverResumedAt ? heard : serverResumedAt;
}

/**
 * The uptime score over the rolling window. A host silent past the offline limit whose outage
 * the worker has not opened yet counts as down since its last heartbeat.
 */
export function hostUptimePercent(
  host: Pick<Host, 'enrolledAt' | 'offlineSince' | 'lastHeartbeatAt'>,
  outages: readonly OutagePeriod[],
  now: Date,
  serverResumedAt: Date | null = null,
): number | null {
  return uptimePercent(uptimeInput(host, outages, now, serverResumedAt));
}

function uptimeInput(
  host: Pick<Host, 'enrolledAt' | 'offlineSince' | 'lastHeartbeatAt'>,
  outages: readonly OutagePeriod[],
  now: Date,
  serverResumedAt: Date | null,
) {
  const open = outages.some((o) => o.endedAt === null);
  const since = silentSince(host, serverResumedAt);
  const implied =
    !open && since && hostStatus(host, now, serverResumedAt) === 'offline'
      ? [{ startedAt: since, endedAt: null }]
      : [];
  return {
    now,
    windowMs: UPTIME_WINDOW_MS,
    enrolledAt: host.enrolledAt,
    outages: [...outages, ...implied],
  };
}

/**
 * The host's downtime over the uptime window (docs/decisions/022): whole minutes offline, since
 * when it is offline now, and its renters' minutes not charged meanwhile.
 */
function hostDowntime(
  host: Pick<Host, 'enrolledAt' | 'offlineSince' | 'lastHeartbeatAt'>,
  outages: readonly OutagePeriod[],
  now: Date,
  notChargedMinutes: number,
  serverResumedAt: Date | null,
): HostView['downtime'] {
  const input = uptimeInput(host, outages, now, serverResumedAt);
  const open = input.outages.find((o) => o.endedAt === null);
  return {
    minutes: Math.floor((downtime(input)?.down ?? 0) / 60_000),
    offlineSince: open?.startedAt.toISOString() ?? null,
    notChargedMinutes,
  };
}

export function presentHost(
  host: Host,
  extra: {
    now: Date;
    outages: readonly OutagePeriod[];
    usage: HostUsage;
    /** Its renters' metered minutes not charged in the window's outages. */
    notChargedMinutes?: number;
    /** When the server last came back after a gap of its own (issue 39); null: never away. */
    serverResumedAt?: Date | null;
  },
): HostView {
  const { now, outages, usage } = extra;
  const resumed = extra.serverResumedAt ?? null;
  const inventory = host.inventory;
  const awaiting = !host.enrolledAt;
  return {
    id: host.id,
    name: host.name,
    status: hostStatus(host, now, resumed),
    hostname: host.hostname ?? inventory?.host.hostname ?? null,
    publicHost: host.publicHost,
    agentAddress: host.agentAddress,
    agentVersion: host.agentVersion,
    accelerator:
      (host.accelerator as HostView['accelerator']) ?? inventory?.host.accelerator ?? null,
    enrolledAt: host.enrolledAt?.toISOString() ?? null,
    lastHeartbeatAt: host.lastHeartbeatAt?.toISOString() ?? null,
    uptimePercent: hostUptimePercent(host, outages, now, resumed),
    downtime: hostDowntime(host, outages, now, extra.notChargedMinutes ?? 0, resumed),
    cpuCores: inventory?.host.cpu.cores ?? null,
    memoryTotalBytes: inventory?.host.memory.totalBytes ?? null,
    diskFreeBytes: inventory?.host.disk.freeBytes ?? null,
    gpus: (inventory?.gpus.gpus ?? []).map((gpu) => ({
      index: gpu.index,
      name: gpu.name,
      model: marketplaceModelOf(gpu.name),
      memoryTotalMib: gpu.memoryTotalMib,
      utilizationPercent: gpu.utilizationPercent,
      temperatureC: gpu.temperatureC,
    })),
    gpuError: inventory?.gpus.error ?? null,
    readiness: host.readiness ?? null,
    enrolmentExpiresAt: awaiting ? (host.enrolTokenExpiresAt?.toISOString() ?? null) : null,
    liveInstances: usage.liveInstances,
    listings: usage.listings,
    listingProblems: usage.listingProblems,
    createdAt: host.createdAt.toISOString(),
  };
}
