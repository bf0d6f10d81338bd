import type { PublicGpuListing, PublicInstance } from '../../shared/contracts/public-api';
import { sshCommand } from '../../shared/rules/shell-command';
import { type Column, fields } from '../output';
import { localTime } from '../time';

/**
 * Where an instance can be reached: only while it is running. A stopped, ended or failed
 * instance's port may already be another's, so it shows none.
 */
function sshEndpoint(i: PublicInstance) {
  return i.status === 'running' && i.sshHost && i.sshPort
    ? { user: i.sshUsername, host: i.sshHost, port: i.sshPort }
    : null;
}

/** Why there is no SSH command, in the words of the state. */
function noSsh(i: PublicInstance): string {
  if (i.status === 'provisioning' || i.status === 'starting' || i.status === 'running') {
    return 'not ready yet';
  }
  return `none (the instance is ${i.status})`;
}

/** Its status, with "host unreachable" while its host is dark (older servers send no hostStatus). */
function statusWord(i: PublicInstance): string {
  return i.hostStatus === 'offline' ? `${i.status} (host unreachable)` : i.status;
}

/** While its host is unreachable: since when, and what that means for the renter. */
export function hostLine(i: PublicInstance): string | null {
  if (i.hostStatus !== 'offline') return null;
  return `unreachable since ${localTime(i.hostOfflineSince)}: not charged meanwhile; actions run when it is back`;
}

/** How instances and GPUs look on a terminal. */
export const instanceColumns: Column<PublicInstance>[] = [
  ['id', (i) => i.id],
  ['status', statusWord],
  ['gpu', (i) => i.gpuModel],
  ['kind', (i) => i.kind ?? 'vm'],
  ['plan', (i) => i.billingPlan],
  ['$/hour', (i) => i.hourlyRate],
  [
    'ssh',
    (i) => {
      const ssh = sshEndpoint(i);
      return ssh ? `${ssh.user}@${ssh.host}:${ssh.port}` : null;
    },
  ],
  ['created', (i) => localTime(i.createdAt)],
];

/**
 * A listing as the CLI reads it: the public API's fields, and the host's status when the
 * server gives one (older servers do not).
 */
export type GpuRow = Omit<PublicGpuListing, ComparedFields | 'kinds'> &
  Partial<Pick<PublicGpuListing, ComparedFields>> & {
    hostStatus?: string;
    kinds?: PublicGpuListing['kinds'];
  };

/** What a listing is compared by (issue 42): older servers send none of it. */
type ComparedFields =
  | 'gpuCount'
  | 'gpuMemoryGb'
  | 'pricePerGpuHour'
  | 'diskGb'
  | 'driverVersion'
  | 'cudaVersion'
  | 'reliability';

/** Its host's uptime ("99.4% (30 d)", "new" with too little history), else the rating. */
function reliabilityText(g: GpuRow): string {
  if (!g.reliability) return g.provider.reputation;
  const { uptimePercent, windowDays } = g.reliability;
  return uptimePercent === null ? 'new' : `${uptimePercent}% (${windowDays} d)`;
}

export function gpuColumns(rows: readonly GpuRow[]): Column<GpuRow>[] {
  return [
    ['id', (g) => g.id],
    ['model', (g) => g.model],
    ['memory', (g) => g.memory],
    // One GPU's share of its host: the most an instance of it gets ("-": not reported yet).
    ['vCPUs/GPU', (g) => g.gpuShare?.vcpus],
    ['RAM/GPU', (g) => (g.gpuShare ? `${g.gpuShare.memoryGb} GB` : null)],
    ...(rows.some((g) => g.gpuCount !== undefined)
      ? ([
          ['GPUs', (g: GpuRow) => g.gpuCount],
          ['disk', (g: GpuRow) => (g.diskGb == null ? null : `${g.diskGb} GB`)],
          ['CUDA', (g: GpuRow) => g.cudaVersion],
        ] as Column<GpuRow>[])
      : []),
    ['location', (g) => g.location],
    ['$/hour', (g) => g.hourlyRate],
    ...(rows.some((g) => g.pricePerGpuHour !== undefined)
      ? [['$/GPU-hour', (g: GpuRow) => g.pricePerGpuHour] as Column<GpuRow>]
      : []),
    ['available', (g) => g.availableCount],
    // The kinds its host runs now (older servers send none).
    ...(rows.some((g) => g.kinds !== undefined)
      ? [['kinds', (g: GpuRow) => g.kinds?.join(',') || null] as Column<GpuRow>]
      : []),
    ...(rows.some((g) => g.hostStatus !== undefined)
      ? [['host', (g: GpuRow) => g.hostStatus] as Column<GpuRow>]
      : []),
    // Uptime of its host over the last 30 days ("new": too little history); older servers
    // send none, and the column then shows the provider's rating as before.
    ['reliability', (g) => reliabilityText(g)],
    ['provider', (g) => g.provider.name],
  ];
}

export function instanceFields(i: PublicInstance): string {
  const ssh = sshEndpoint(i);
  const live = i.status === 'provisioning' || i.status === 'starting';
  const host = hostLine(i);
  return fields([
    ['ID', i.id],
    ['Status', i.provisioningStep && live ? `${i.status} (${i.provisioningStep})` : i.status],
    ...(host ? [['Host', host] as [string, unknown]] : []),
    ['GPU', `${i.gpuModel} (${i.location})`],
    ['Kind', i.kind ?? 'vm'],
    ...(i.kind === 'container'
      ? ([
          ['Image', i.image],
          ['Digest', i.imageDigest ?? 'not resolved yet'],
        ] as [string, unknown][])
      : []),
    ['Plan', i.durationHours != null ? `${i.billingPlan}, ${i.durationHours} h` : i.billingPlan],
    ['Rate', `$${i.hourlyRate}/hour`],
    // Compute is charged from ready (issue 39); older servers send no note.
    ...(i.computeChargeNote ? [['Charges', i.computeChargeNote] as [string, unknown]] : []),
    ['SSH', ssh ? sshCommand(ssh, i.id) : noSsh(i)],
    ...(i.failureReason ? [['Reason', i.failureReason] as [string, unknown]] : []),
    ['Created', localTime(i.createdAt)],
    ...(live ? [['Ready by', localTime(i.estimatedStartTime)] as [string, unknown]] : []),
    ...(i.endsAt && !i.endedAt ? [['Ends', localTime(i.endsAt)] as [string, unknown]] : []),
    ...(i.endedAt ? [['Ended', localTime(i.endedAt)] as [string, unknown]] : []),
    ['Actions', i.actions.join(', ') || 'none'],
    ...(i.stopAt ? [['Stops at', localTime(i.stopAt)] as [string, unknown]] : []),
    ...(i.terminateAt ? [['Terminates at', localTime(i.terminateAt)] as [string, unknown]] : []),
  ]);
}
