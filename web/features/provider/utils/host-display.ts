import type { HostStatus, HostView } from '../../../../shared/contracts/hosts';

export const HOST_STATUS_LABELS: Record<HostStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  awaiting_enrolment: 'Awaiting enrolment',
};

export const HOST_STATUS_TONES: Record<HostStatus, 'success' | 'danger' | 'warning'> = {
  online: 'success',
  offline: 'danger',
  awaiting_enrolment: 'warning',
};

/** "just now", "45 s ago", "12 min ago", "3 h ago", "2 days ago"; "never" without a time. */
export function timeAgo(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}

/** Minutes until an instant, rounded up ("in 59 min"), or null once it has passed. */
export function minutesLeft(iso: string, now: number): number | null {
  const ms = new Date(iso).getTime() - now;
  return ms > 0 ? Math.ceil(ms / 60_000) : null;
}

/** MiB as nvidia-smi counts them, in whole GB as GPUs are sold (24564 MiB → "24 GB"). */
export function gpuMemory(mib: number | null): string | null {
  return mib === null ? null : `${Math.round(mib / 1024)} GB`;
}

/** Bytes in GB (decimal, as disks and RAM are sold): 137438953472 → "137 GB". */
export function bytesAsGb(bytes: number | null): string | null {
  return bytes === null ? null : `${Math.round(bytes / 1e9)} GB`;
}

/** The host's GPUs grouped by model and memory: "2 × NVIDIA GeForce RTX 4090 (24 GB)". */
export function gpuSummary(gpus: HostView['gpus']): string[] {
  const groups = new Map<string, number>();
  for (const gpu of gpus) {
    const memory = gpuMemory(gpu.memoryTotalMib);
    const label = memory ? `${gpu.name} (${memory})` : gpu.name;
    groups.set(label, (groups.get(label) ?? 0) + 1);
  }
  return [...groups].map(([label, count]) => (count > 1 ? `${count} × ${label}` : label));
}

/** "99.9%"; "—" before the host has enrolled. */
export function uptimeText(percent: number | null): string {
  return percent === null ? '—' : `${percent.toFixed(percent === 100 ? 0 : 1)}%`;
}

/**
 * What the provider reads about a host's readiness (docs/decisions/021): the headline
 * ("Online — not ready: reason Fix: …") while it is online and cannot serve a VM, then one
 * line per other problem, GPU that cannot be passed through, and note. Empty: nothing to say.
 */
export function readinessLines(host: Pick<HostView, 'status' | 'readiness'>): {
  headline: string | null;
  gpus: string[];
  notes: string[];
} {
  const r = host.readiness;
  if (!r || host.status === 'awaiting_enrolment') return { headline: null, gpus: [], notes: [] };
  const [first, ...rest] = r.problems;
  const status = HOST_STATUS_LABELS[host.status];
  const headline = first ? `${status} — not ready: ${first.reason} Fix: ${first.fix}` : null;
  const gpus = r.gpus
    .filter((g) => !g.ready)
    .map((g) => {
      const p = g.problems[0];
      return `GPU ${g.index} — not ready${p ? `: ${p.reason} Fix: ${p.fix}` : ''}`;
    });
  const notes = [
    ...rest.map((p) => `Also: ${p.reason} Fix: ${p.fix}`),
    ...r.notes.map((p) => `${p.reason} ${p.fix}`),
  ];
  return { headline, gpus, notes };
}
