import { z } from 'zod';
import { HOST_ADDRESS_MAX, parseHostAddress } from '../rules/host-address';

/**
 * A provider's hosts, as the provider dashboard sees them (session auth, approved providers):
 *
 *   GET    /api/providers/hosts                  → 200 {hosts: HostView[]}
 *   POST   /api/providers/hosts {name}           → 201 {host: HostView, enrolment: Enrolment}
 *   POST   /api/providers/hosts/{id}/enrolment   → 201 {host, enrolment}  (a new token; only
 *                                                   while the host has not enrolled)
 *   PATCH  /api/providers/hosts/{id} {publicHost} → 200 {host}  (the address renters connect to)
 *   DELETE /api/providers/hosts/{id}             → 204 (409 HOST_IN_USE while an instance or
 *                                                   a listing still uses it)
 *
 * The enrolment token is shown once: the server keeps only its hash; it is valid one hour and
 * spent by the agent's first enrol (shared/contracts/agent-protocol.ts).
 */

export const ENROLMENT_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Rolling window of the uptime score. */
export const UPTIME_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export const HOST_NAME_MAX = 64;

/**
 * The address renters connect to, as the provider sets it for a host: a DNS name or an IP
 * literal. The host may then report only this one or the address its agent calls from
 * (docs/decisions/013-hosts-are-untrusted.md). Empty or null: none.
 */
export const publicHostField = z
  .string()
  .trim()
  .max(HOST_ADDRESS_MAX + 1, { message: 'Public address is too long' })
  .nullable()
  .transform((v, ctx) => {
    if (v === null || v === '') return null;
    const parsed = parseHostAddress(v);
    if (!parsed) {
      ctx.addIssue({
        code: 'custom',
        message: 'Public address must be a host name (gpu-1.example.com) or an IP address',
      });
      return z.NEVER;
    }
    return parsed.value;
  });

export const createHostBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Host name is required' })
    .max(HOST_NAME_MAX, { message: `Host name must be at most ${HOST_NAME_MAX} characters` }),
  publicHost: publicHostField.optional(),
});
export type CreateHostBody = z.input<typeof createHostBody>;

export const updateHostBody = z.object({ publicHost: publicHostField });
export type UpdateHostBody = z.input<typeof updateHostBody>;

/** awaiting_enrolment: created, agent not yet enrolled; then online / offline by heartbeats. */
export const HOST_STATUSES = ['awaiting_enrolment', 'online', 'offline'] as const;
export type HostStatus = (typeof HOST_STATUSES)[number];

export const hostGpuView = z.object({
  index: z.number().int(),
  name: z.string(),
  /** The marketplace model it can be listed as (shared/gpu-names.ts); null: none. */
  model: z.string().nullable(),
  memoryTotalMib: z.number().int().nullable(),
  utilizationPercent: z.number().nullable(),
  temperatureC: z.number().nullable(),
});

/** One thing that keeps a host or a GPU from serving a VM: what is wrong and how to fix it. */
export const readinessProblem = z.object({ reason: z.string(), fix: z.string() });
export type ReadinessProblem = z.infer<typeof readinessProblem>;

/**
 * One kind's verdict (docs/decisions/025): whether the host runs that kind at all (its agent's
 * AGENT_DRIVERS), whether it can take rentals of it, why not, and which GPUs can serve it.
 */
export const kindReadiness = z.object({
  offered: z.boolean(),
  ready: z.boolean(),
  problems: z.array(readinessProblem),
  readyGpus: z.array(z.number().int()),
});
export type KindReadiness = z.infer<typeof kindReadiness>;

/**
 * shared/rules/host-readiness.ts's verdict (docs/decisions/021, per kind since 025). The
 * top-level `ready`, `problems` and `readyGpus` are the host as a whole: ready when some kind it
 * offers is, its GPUs those that serve some kind; `kinds` says which.
 */
export const hostReadiness = z.object({
  ready: z.boolean(),
  /** How VMs run: with KVM, emulated (slow, tests only), or not at all. */
  virtualisation: z.enum(['hardware', 'emulated', 'none']),
  /** Why the host takes no rentals (empty when ready). */
  problems: z.array(readinessProblem),
  /** Worth knowing, not blocking (emulated VMs, no OS image held yet). */
  notes: z.array(readinessProblem),
  gpus: z.array(
    z.object({ index: z.number().int(), ready: z.boolean(), problems: z.array(readinessProblem) }),
  ),
  /** Indexes of the GPUs that can serve some kind the host offers. */
  readyGpus: z.array(z.number().int()),
  /** Per kind; absent from verdicts stored before containers (then: the VM kind's as above). */
  kinds: z.object({ vm: kindReadiness, container: kindReadiness }).optional(),
});
export type HostReadiness = z.infer<typeof hostReadiness>;

export const hostView = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(HOST_STATUSES),
  hostname: z.string().nullable(),
  /** The address renters connect to, as its provider set it; null: the agent's address. */
  publicHost: z.string().nullable(),
  /** The address the host's agent last called from, as the server saw it. */
  agentAddress: z.string().nullable(),
  agentVersion: z.string().nullable(),
  accelerator: z.enum(['kvm', 'tcg', 'none']).nullable(),
  enrolledAt: z.string().nullable(),
  lastHeartbeatAt: z.string().nullable(),
  /** Percent of the last 30 days (or since enrolment) the host was heartbeating; null before. */
  uptimePercent: z.number().nullable(),
  /** Its downtime over the same window: what its outages cost its renters nothing for. */
  downtime: z.object({
    /** Whole minutes offline in the last 30 days (or since enrolment). */
    minutes: z.number().int(),
    /** While offline: its last heartbeat, when the outage began; null while online. */
    offlineSince: z.string().nullable(),
    /** Its renters' minutes not charged because it was unreachable, in that window. */
    notChargedMinutes: z.number().int(),
  }),
  cpuCores: z.number().int().nullable(),
  memoryTotalBytes: z.number().nullable(),
  diskFreeBytes: z.number().nullable(),
  gpus: z.array(hostGpuView),
  /** Why the host reports no GPUs (nvidia-smi missing or failing), or null. */
  gpuError: z.string().nullable(),
  /** Whether the host can serve a VM, and why not (null before its first heartbeat). */
  readiness: hostReadiness.nullable(),
  /** Expiry of the current enrolment token while awaiting enrolment, else null. */
  enrolmentExpiresAt: z.string().nullable(),
  liveInstances: z.number().int(),
  listings: z.number().int(),
  /**
   * Its listings that cannot be rented because the host no longer reports a GPU they sell,
   * and why (docs/decisions/020).
   */
  listingProblems: z.array(
    z.object({ listingId: z.number().int(), model: z.string(), problem: z.string() }),
  ),
  createdAt: z.string(),
});
export type HostView = z.infer<typeof hostView>;

export const enrolment = z.object({
  token: z.string(),
  expiresAt: z.string(),
  /** One line a provider pastes into a root shell on the host. */
  installCommand: z.string(),
});
export type Enrolment = z.infer<typeof enrolment>;

export const hostsResponse = z.object({ hosts: z.array(hostView) });
export const createHostResponse = z.object({ host: hostView, enrolment });
export const hostResponse = z.object({ host: hostView });
export type CreateHostResponse = z.infer<typeof createHostResponse>;

/** Enrolment tokens and agent credentials: URL-safe, so they pass through a shell unquoted. */
export const ENROLMENT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

/** Where the install command saves the installer, in the directory it is run from. */
export const INSTALLER_FILE = 'rentgpu-install.sh';

/**
 * The install command for a token (ADR 014). `publicUrl` is the server's configured address
 * (PUBLIC_URL), never a request's. The installer is saved and then run, so the token reaches
 * it on standard input (a here-string): it is in no command's arguments, where `ps` would
 * show it to every user of the host. The installer is static; nothing is spliced into it.
 * Plain http (only outside production) must be allowed explicitly with --allow-http.
 */
export function installCommand(publicUrl: string, token: string): string {
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  const https = publicUrl.startsWith('https://');
  const url = `${publicUrl}/api/providers/agent/download`;
  const curl = `curl -fsSL${https ? ` --proto '=https'` : ''} -o ${INSTALLER_FILE} ${quote(url)}`;
  const run = `sudo bash ${INSTALLER_FILE} --server ${quote(publicUrl)}${https ? '' : ' --allow-http'} --token-stdin`;
  return `${curl} && ${run} <<< ${quote(token)}`;
}
