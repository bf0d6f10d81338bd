import type { GpuInfo } from '../../../../shared/contracts/agent-protocol';
import type { GpuUtilization, VmInstanceView } from '../../../../shared/contracts/kvm';
import { computeChargeNote } from '../../../../shared/rules/compute-billing';
import { guestMemoryGb } from '../../../../shared/rules/gpu-share';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import { microsToDollars } from '../../../../shared/rules/money';
import { sshCommand } from '../../../../shared/rules/shell-command';
import { shownHostError } from '../../../../shared/rules/system-error';
import { hostPresence } from '../host-side/host-presence';
import type { InstanceRow } from '../repo';
import { deadlinesIn } from './deadlines-presenter';
import { idleIn } from './idle-presenter';
import { vmStatus, webConsolePath } from './presenter';
import { provisioningStepOf } from './progress';

/** A host's last GPU readings (its heartbeat's nvidia-smi inventory) and when they came. */
export interface HostReadings {
  gpus: GpuInfo[];
  at: Date | null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clampPct = (n: number) => Math.max(0, Math.min(100, round1(n)));

/**
 * What the instance's GPUs (its `gpu_indexes` on its host) did at the last heartbeat: usage
 * and memory averaged over its GPUs, the hottest temperature; a figure no GPU reported
 * (nvidia-smi's "[N/A]") is null, never 0. Null without any reading. `stale` while its host is
 * unreachable: the figures are from before it went dark.
 */
export function measuredUsage(
  indexes: number[],
  readings: HostReadings | undefined,
  stale = false,
): GpuUtilization | null {
  if (!readings) return null;
  const mine = readings.gpus.filter((g) => indexes.includes(g.index));
  const usage = mine.flatMap((g) => (g.utilizationPercent === null ? [] : [g.utilizationPercent]));
  const memory = mine.flatMap((g) =>
    g.memoryUsedMib === null || !g.memoryTotalMib
      ? []
      : [(g.memoryUsedMib / g.memoryTotalMib) * 100],
  );
  const temps = mine.flatMap((g) => (g.temperatureC === null ? [] : [g.temperatureC]));
  if (usage.length === 0 && memory.length === 0 && temps.length === 0) return null;
  const mean = (xs: number[]) =>
    xs.length === 0 ? null : clampPct(xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    gpu_usage: mean(usage),
    memory_usage: mean(memory),
    temperature: temps.length === 0 ? null : round1(Math.max(...temps)),
    simulated: false,
    measured_at: readings.at?.toISOString() ?? null,
    stale,
  };
}

/**
 * A demo host runs no GPU, so its figures are made up: smooth waves, different per instance,
 * moving each minute. Flagged `simulated` so the page labels them.
 */
export function simulatedUsage(instanceId: number, now: Date): GpuUtilization {
  const t = now.getTime() / 60_000 + instanceId * 7;
  return {
    gpu_usage: clampPct(55 + 30 * Math.sin(t / 5)),
    memory_usage: clampPct(45 + 20 * Math.sin(t / 9 + 1)),
    temperature: round1(58 + 12 * Math.sin(t / 7 + 2)),
    simulated: true,
    measured_at: null,
    stale: false,
  };
}

/** The in-process demo host's id (server/modules/hosts/demo-host.ts, DEMO_HOST_ID). */
const onDemoHost = (hostId: string | null) => hostId === 'demo';

/**
 * A metered instance in the VM dashboard's words (shared/contracts/kvm.ts, `VmInstanceView`).
 * Status: provisioning → creating, every other state as itself (presenter.ts `vmStatus`;
 * the lifecycle state rides along as `state`). Connection info only while running with an
 * SSH address reported.
 */
export function presentVm(
  { instance, listing }: InstanceRow,
  readings: HostReadings | undefined,
  now: Date,
): VmInstanceView {
  const state = instance.status as InstanceState;
  const running = state === 'running';
  const reachable = running && instance.sshHost !== null && instance.sshPort !== null;
  const host = hostPresence(instance);
  return {
    vm_id: instance.id,
    gpu_type: listing.model,
    gpu_memory: listing.memoryGb ?? 0,
    cpu_cores: instance.cpus,
    ram_gb: guestMemoryGb(instance),
    disk_gb: instance.storageGb,
    template: instance.template,
    source: instance.source,
    kind: instance.kind,
    image: instance.containerImage,
    image_digest: instance.imageDigest,
    status: vmStatus(instance),
    state,
    created_at: instance.startTime.toISOString(),
    started_at: running ? instance.stateChangedAt.toISOString() : null,
    ran_minutes: instance.computeMinutes,
    hourly_rate: microsToDollars(instance.hourlyRateMicros),
    total_cost: microsToDollars(instance.chargedMicros),
    compute_charge_note: computeChargeNote(instance),
    is_demo_host: listing.isDemoHost,
    end_reason: instance.endReason,
    ...deadlinesIn(instance, 'stop_at', 'terminate_at'),
    ...idleIn(instance, [
      'idle_stop_minutes',
      'idle_threshold_percent',
      'idle_stop_at',
      'idle_warned_at',
    ]),
    failure_reason: state === 'failed' ? shownHostError(instance.hostError) : null,
    connection_info: reachable
      ? {
          ssh_command: sshCommand(
            { user: instance.sshUsername, host: instance.sshHost ?? '', port: instance.sshPort },
            instance.id,
          ),
          ssh_host_key_fingerprint: instance.sshHostKeyFingerprint,
          vnc_url: instance.vncAddress,
          web_console: webConsolePath(instance.id),
          gpu_utilization: onDemoHost(instance.hostId)
            ? simulatedUsage(instance.id, now)
            : measuredUsage(instance.gpuIndexes, readings, host.status === 'offline'),
        }
      : null,
    provisioning_step: provisioningStepOf(instance),
    host_status: host.status,
    host_offline_since: host.offlineSince?.toISOString() ?? null,
  };
}
