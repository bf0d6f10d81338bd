import { z } from 'zod';
import { HOST_ADDRESS_MAX, parseHostAddress } from '../rules/host-address';
import { hostImageStatus, imageCatalogue, imageName, provisioningProgress } from './images';
import { imageDigest, instanceKind, ociReference } from './instance-kind';

/**
 * The agent protocol (docs/decisions/008-agent-protocol-hosts-call-out.md): the one contract
 * between a provider host's agent and the server. The agent always calls out; the server
 * never calls in.
 *
 *   POST /api/v1/agents/enroll                  enrollRequest  → 201 enrollResponse
 *   POST /api/v1/agents/heartbeat               heartbeatRequest → 200 heartbeatResponse
 *   POST /api/v1/agents/instances/{id}/report   instanceReport → 200 instanceReportResponse
 *   POST /api/v1/agents/wait                    waitRequest → 200 waitResponse (long poll)
 *
 * Heartbeat and report carry `Authorization: Bearer <credential>` (the credential from enrol).
 * Errors use the API's error body `{"error":{"code","message","details"}}`: 400
 * VALIDATION_FAILED, 401 UNAUTHENTICATED (unknown/revoked credential or spent token).
 */

export const AGENT_API_PREFIX = '/api/v1/agents';
export const agentPaths = {
  enroll: `${AGENT_API_PREFIX}/enroll`,
  heartbeat: `${AGENT_API_PREFIX}/heartbeat`,
  report: (instanceId: string) =>
    `${AGENT_API_PREFIX}/instances/${encodeURIComponent(instanceId)}/report`,
  wait: `${AGENT_API_PREFIX}/wait`,
} as const;

/**
 * The longest a wait is held. Between heartbeats the agent waits (hosts still only call
 * out): the server answers at once when a renter's action gives the host work (create,
 * start, stop, terminate), so the host hears of it in well under a second, not at its next
 * heartbeat (up to 30 s later); otherwise it answers `work: false` after `maxMs`.
 */
export const AGENT_WAIT_MAX_MS = 30_000;

export const waitRequest = z.object({
  maxMs: z.number().int().min(0).max(AGENT_WAIT_MAX_MS),
});
export type WaitRequest = z.infer<typeof waitRequest>;

export const waitResponse = z.object({
  /** true: something changed for this host since its last heartbeat; heartbeat now. */
  work: z.boolean(),
});
export type WaitResponse = z.infer<typeof waitResponse>;

/**
 * The most instances one heartbeat lists either way: the statuses an agent sends (one that
 * holds more sends them in turns, a window per heartbeat) and the desired instances one
 * answer carries (more follow in pages: `cursor` and `nextCursor`).
 */
export const AGENT_HEARTBEAT_LIST_MAX = 1000;
/** The most pages an agent reads for one heartbeat (100,000 instances). */
export const AGENT_HEARTBEAT_MAX_PAGES = 100;

/** The agent's default heartbeat and update intervals. */
export const AGENT_HEARTBEAT_INTERVAL_MS = 30_000;
export const AGENT_UPDATE_INTERVAL_MS = 60_000;
/** A host silent for this long is offline (docs/decisions/011): three missed heartbeats. */
export const AGENT_OFFLINE_AFTER_MS = 90_000;

const shortText = (max: number) => z.string().min(1).max(max);
const instanceId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'Not an instance id' });
const generation = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const port = z.number().int().min(1).max(65_535);
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

// ── enrol ────────────────────────────────────────────────────────────────────────────────

export const enrollRequest = z.object({
  /**
   * The one-time enrolment token the provider copied from the web app. It stays good until the
   * host's first heartbeat (a lost answer can be retried; each enrol replaces the credential).
   */
  token: shortText(200),
  hostname: shortText(253),
  agentVersion: shortText(40),
});
export type EnrollRequest = z.infer<typeof enrollRequest>;

export const enrollResponse = z.object({
  agentId: shortText(64),
  /** The agent's long-lived bearer credential. Shown once; the server keeps only a hash. */
  credential: z.string().min(32).max(200),
  heartbeatIntervalMs: z.number().int().min(1000).max(600_000).optional(),
});
export type EnrollResponse = z.infer<typeof enrollResponse>;

// ── heartbeat: what the host has ─────────────────────────────────────────────────────────

/** One GPU as `nvidia-smi --query-gpu=…` reports it; null where it printed `[N/A]`. */
export const gpuInfo = z.object({
  index: z.number().int().min(0).max(255),
  name: z.string().max(200),
  uuid: z.string().max(100).nullable(),
  memoryTotalMib: z.number().int().min(0).nullable(),
  memoryUsedMib: z.number().int().min(0).nullable(),
  utilizationPercent: z.number().min(0).max(100).nullable(),
  temperatureC: z.number().min(-100).max(300).nullable(),
  /** PCI address as nvidia-smi prints it (`00000000:01:00.0`); the vfio-pci passthrough key. */
  pciBusId: z.string().max(32).nullable(),
  /**
   * The kernel driver the GPU is bound to: `nvidia` (listed by nvidia-smi: containers can use
   * it through CDI) or `vfio-pci` (found in sysfs, invisible to nvidia-smi: only a VM can get
   * it). Absent from older agents: `nvidia`.
   */
  boundTo: z.enum(['nvidia', 'vfio-pci']).optional(),
});
export type GpuInfo = z.infer<typeof gpuInfo>;

export const gpuInventory = z.object({
  gpus: z.array(gpuInfo).max(64),
  /** The NVIDIA driver's version (`nvidia-smi` header, `550.54.15`); absent from older agents. */
  driverVersion: z.string().max(64).nullable().optional(),
  /** The highest CUDA version the driver supports (`nvidia-smi` header, `12.4`); absent from older agents. */
  cudaVersion: z.string().max(16).nullable().optional(),
  /** Why there are no GPUs (no nvidia-smi, broken driver, unreadable output); null when fine. */
  error: z.string().max(1000).nullable(),
});
export type GpuInventory = z.infer<typeof gpuInventory>;

/** What the container driver found on the host (agent/container/probe.ts). */
export const containerProbe = z.object({
  /** `podman --version`'s version, or null where podman is missing or does not answer. */
  podman: z.string().max(100).nullable(),
  /** The OCI runtime podman uses (`runc 1.1.5`), or null. */
  runtime: z.string().max(200).nullable(),
  /** Why podman or its runtime cannot run containers (its own words); null when fine. */
  error: z.string().max(1000).nullable(),
  /** A real trial container (`--check`): passed, failed (see error) or not run this time. */
  trial: z.enum(['passed', 'failed', 'not-run']),
  /** The CDI spec files read (`/etc/cdi`, `/var/run/cdi`) and the GPU devices they name. */
  cdi: z.object({
    /** Device names of kind `nvidia.com/gpu` (`0`, `1`, `GPU-<uuid>`, `all`). */
    gpuDevices: z.array(z.string().max(200)).max(256),
    /** Why no spec could be read (none there, unparsable); null when one was. */
    error: z.string().max(1000).nullable(),
  }),
  /** NVIDIA Container Toolkit's version (`nvidia-ctk --version`), or null where it is missing. */
  toolkitVersion: z.string().max(40).nullable(),
  /** Whether a container's writable layer can be held to its disk size on this host, and why not. */
  diskLimit: z.object({ enforced: z.boolean(), reason: z.string().max(500).nullable() }),
});
export type ContainerProbe = z.infer<typeof containerProbe>;

/**
 * What the agent found it can really run (docs/decisions/021): facts only; the rules that turn
 * them into "ready" or "not ready: why" are shared/rules/host-readiness.ts, applied by the agent
 * (`--check`) and by the server at each heartbeat.
 */
export const readinessProbe = z.object({
  /** The hardware virtualisation module loaded (`/sys/module/kvm_intel`, `kvm_amd`), or null. */
  kvmModule: z.enum(['kvm_intel', 'kvm_amd']).nullable(),
  /** `/dev/kvm`: opened read-write by the agent, present but not openable, or absent. */
  devKvm: z.enum(['usable', 'denied', 'absent']),
  /** AGENT_ALLOW_SOFTWARE_EMULATION: VMs may run under TCG (tests only). */
  softwareEmulation: z.boolean(),
  /** AGENT_GPU_PASSTHROUGH: GPUs are handed to VMs with vfio-pci. */
  gpuPassthrough: z.boolean(),
  /** Entries of /sys/kernel/iommu_groups (0: no IOMMU). */
  iommuGroups: z.number().int().min(0),
  /** Per GPU nvidia-smi listed: its IOMMU group and the driver bound to it, from sysfs. */
  gpus: z
    .array(
      z.object({
        index: z.number().int().min(0).max(255),
        iommuGroup: z.string().max(20).nullable(),
        driver: z.string().max(64).nullable(),
      }),
    )
    .max(64),
  /**
   * The OS image: `held` (a verified image, a configured base image or a test kernel),
   * `fetchable` (none yet; the first rental fetches one), `missing` (AGENT_BASE_IMAGE names
   * no file).
   */
  image: z.enum(['held', 'fetchable', 'missing']),
  /**
   * The container driver's facts (docs/decisions/025); absent or null where the host runs no
   * containers (AGENT_DRIVERS without `container`).
   */
  container: containerProbe.nullable().optional(),
});
export type ReadinessProbe = z.infer<typeof readinessProbe>;

export const hostInventory = z.object({
  hostname: shortText(253),
  cpu: z.object({ model: z.string().max(200), cores: z.number().int().min(1).max(4096) }),
  memory: z.object({
    totalBytes: bytes,
    availableBytes: bytes,
    /**
     * What guests may use together (AGENT_GUEST_MEMORY_MIB): the rest stays with the host.
     * Absent: the server keeps 20% for the host. Each GPU's instance gets its share.
     */
    guestBytes: bytes.optional(),
  }),
  /** The file system holding the agent's state folder (instance disks live there). */
  disk: z.object({ path: z.string().max(4096), totalBytes: bytes, freeBytes: bytes }),
  /** `kvm` when hardware virtualisation is usable; `tcg` = software emulation (tests only). */
  accelerator: z.enum(['kvm', 'tcg', 'none']),
  /**
   * Guest images the host can boot besides its Ubuntu base (`windows11`). Absent: only Ubuntu.
   * The VM dashboard offers the windows11 template only on hosts that list it.
   */
  images: z
    .array(z.enum(['ubuntu22', 'windows11']))
    .max(10)
    .optional(),
  /** What the host can really run (docs/decisions/021). Absent from older agents. */
  readiness: readinessProbe.optional(),
  /**
   * The kinds of instance its agent runs (AGENT_DRIVERS; docs/decisions/025). Absent from
   * older agents: `['vm']`. Whether each is ready is the readiness rules' verdict.
   */
  drivers: z.array(instanceKind).min(1).max(2).optional(),
});
export type HostInventory = z.infer<typeof hostInventory>;

/**
 * Where an instance is, as the host sees it. The server's lifecycle maps these onto its own
 * states; `stopped` keeps the disk, `terminated` means the disk is deleted.
 */
export const INSTANCE_REPORT_STATES = [
  'provisioning',
  'running',
  'stopping',
  'stopped',
  'starting',
  'terminating',
  'terminated',
  'failed',
] as const;
export const instanceReportState = z.enum(INSTANCE_REPORT_STATES);
export type InstanceReportState = z.infer<typeof instanceReportState>;

/**
 * A login user name, as the server asks for one (`sshUser`) and as a host reports the one it
 * made: a POSIX-portable name, never an ssh option or shell text.
 */
export const SSH_USER_PATTERN = /^[a-z_][a-z0-9_-]{0,31}$/;
export const sshUserName = z.string().regex(SSH_USER_PATTERN, { message: 'Not a user name' });

/**
 * An address a host reports: an IP literal or a DNS name (shared/rules/host-address.ts). Which
 * addresses a host may name at all is the server's business (docs/decisions/013).
 */
export const hostAddress = z
  .string()
  .min(1)
  .max(HOST_ADDRESS_MAX)
  .refine((v) => parseHostAddress(v) !== null, { message: 'Not a host name or IP address' });

export const sshEndpoint = z.object({ host: hostAddress, port, user: sshUserName });
export const vncEndpoint = z.object({ host: hostAddress, port });

/** One instance's actual state: the body of a report, and an entry of the heartbeat's list. */
export const instanceStatus = z.object({
  id: instanceId,
  /** The generation of the desired state the agent was converging to. */
  generation,
  state: instanceReportState,
  ssh: sshEndpoint.nullable(),
  vnc: vncEndpoint.nullable(),
  error: z.string().max(2000).nullable(),
  /**
   * Where a provisioning or starting instance is on its way (downloading its image, booting,
   * running its setup); absent or null otherwise. The server words it for renters.
   */
  progress: provisioningProgress.nullable().optional(),
  /**
   * The guest's SSH host public keys (OpenSSH `type base64` lines) once it is ready: the
   * server checks them and computes the fingerprints it shows, so nobody trusts on first use.
   */
  hostKeys: z.array(z.string().min(1).max(16_384)).max(10).optional(),
  /**
   * In a heartbeat, for a running instance: SSH connections to its port that have stayed open
   * at least 2 minutes (agent/inventory/ssh-sessions.ts). More than 0 counts as activity for
   * idle stop (docs/decisions/019), as a GPU over its threshold does; nothing else reads it.
   */
  sshSessions: z.number().int().min(0).max(100_000).optional(),
  /**
   * A container's image as its host resolved it (`sha256:…`, the image's content digest): the
   * instance records it and the renter sees exactly what runs. Absent for VMs.
   */
  imageDigest: imageDigest.nullable().optional(),
});
export type InstanceStatus = z.infer<typeof instanceStatus>;

export const heartbeatRequest = z.object({
  agentVersion: shortText(40),
  sentAt: z.string().datetime(),
  host: hostInventory,
  gpus: gpuInventory,
  /**
   * Every instance the host holds (running or not), including ones the server no longer
   * lists ("orphans": the agent stops them and keeps their disk). A lost report is recovered
   * from here.
   */
  instances: z.array(instanceStatus).max(AGENT_HEARTBEAT_LIST_MAX),
  /** Every image the host holds, is fetching or failed to fetch (shared/contracts/images.ts). */
  images: z.array(hostImageStatus).max(50).optional(),
  /**
   * The previous answer's `nextCursor`: this heartbeat asks for the next page of the answer's
   * instances. Absent: the first page (an older agent, or a host with at most
   * AGENT_HEARTBEAT_LIST_MAX instances, never sends it).
   */
  cursor: instanceId.optional(),
});
export type HeartbeatRequest = z.infer<typeof heartbeatRequest>;

// ── heartbeat answer: what the host should run ───────────────────────────────────────────

export const DESIRED_STATES = ['running', 'stopped', 'terminated'] as const;
export const desiredState = z.enum(DESIRED_STATES);
export type DesiredState = z.infer<typeof desiredState>;

export const desiredInstance = z.object({
  id: instanceId,
  /** Bumped by the server at every change of this object; reports echo it. */
  generation,
  state: desiredState,
  /**
   * What runs it (docs/decisions/025): a QEMU `vm` (absent from older servers) or a Podman
   * `container`. `vncPassword`, `userData` and `image` are the VM kind's; a container has
   * `container` instead.
   */
  kind: instanceKind.default('vm'),
  /** kind `container` only: the OCI image it runs (a reference; its host resolves the digest). */
  container: z.object({ image: ociReference }).nullable().optional(),
  cpus: z.number().int().min(1).max(256),
  memoryMib: z.number().int().min(128).max(4_194_304),
  diskGib: z.number().int().min(1).max(65_536),
  /** Indexes into the heartbeat's `gpus` (nvidia-smi `index`), passed through with vfio-pci. */
  gpuIndexes: z.array(z.number().int().min(0).max(255)).max(16),
  /** Login user created in the guest by cloud-init. */
  sshUser: sshUserName.default('ubuntu'),
  /** The renter's OpenSSH public keys. */
  sshPublicKeys: z.array(z.string().min(1).max(16_384)).max(20),
  /** A per-instance key of the platform (the web console logs in with it). */
  platformSshPublicKey: z.string().min(1).max(16_384).nullable(),
  /** VNC password for the console (VNC authentication uses at most 8 characters). */
  vncPassword: z.string().min(1).max(8),
  /** The template's setup user-data (`#cloud-config` or a `#!` script), or null. */
  userData: z.string().max(65_536).nullable(),
  /**
   * The catalogue image its disk is an overlay of (the heartbeat answer's `images`). Absent or
   * null: the host's configured base image (AGENT_BASE_IMAGE, or direct kernel boot).
   */
  image: imageName.nullable().optional(),
});
export type DesiredInstance = z.infer<typeof desiredInstance>;

export const heartbeatResponse = z.object({
  /**
   * Every instance placed on this host that is not yet acknowledged as terminated, in order
   * of id, at most AGENT_HEARTBEAT_LIST_MAX (one page; see `nextCursor`).
   */
  instances: z.array(desiredInstance).max(AGENT_HEARTBEAT_LIST_MAX),
  /**
   * Present when more instances follow than this answer lists: the agent heartbeats again at
   * once with `cursor` set to it, and takes the pages together as the answer. Until it has
   * read the last page (no `nextCursor`), an instance it holds that no page listed is not an
   * orphan. Absent from older servers and for hosts with at most AGENT_HEARTBEAT_LIST_MAX.
   */
  nextCursor: instanceId.optional(),
  heartbeatIntervalMs: z.number().int().min(1000).max(600_000).optional(),
  /**
   * The address renters connect to for this host, as the server knows it: the public name its
   * provider set, else the address its agent calls from. An agent without AGENT_PUBLIC_HOST
   * reports this one; the server accepts no other (docs/decisions/013).
   */
  publicAddress: hostAddress.optional(),
  /** The image catalogue: what the host may fetch, from where, and each image's SHA-256. */
  images: imageCatalogue.optional(),
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponse>;

// ── report: one transition ───────────────────────────────────────────────────────────────

export const instanceReport = instanceStatus.extend({ at: z.string().datetime() });
export type InstanceReport = z.infer<typeof instanceReport>;

export const instanceReportResponse = z.object({
  /**
   * false when the report changed nothing: its generation is older than the server's, or the
   * instance was already reported terminated at this generation (terminated is final).
   */
  accepted: z.boolean(),
});
export type InstanceReportResponse = z.infer<typeof instanceReportResponse>;
