import type { DesiredInstance, GpuInfo, InstanceStatus } from '../shared/contracts/agent-protocol';
import type {
  CatalogueImage,
  HostImageStatus,
  ProvisioningProgress,
} from '../shared/contracts/images';

/**
 * The seam between the agent's converge loop and the way a host runs instances. The agent
 * plans from `list()` and acts through the other methods; it never learns how an instance
 * runs. `agent/qemu/` is the implementation providers run (virtual machines); a container
 * runtime would be a second folder beside it, chosen in `agent/create-driver.ts` (the only file
 * outside a driver's folder that may import it). `agent/test/memory-driver.ts` runs instances
 * in memory for the agent's unit tests, and `agent/test/driver-contract.ts` says what every
 * driver must do.
 *
 * The life of an instance on a host:
 *   (none) ──create──▶ running, not yet ready ──(ready)──▶ running ──stop──▶ stopped
 *   stopped ──start──▶ running, not yet ready ──(ready)──▶ running
 *   any ──terminate──▶ (none): everything the instance had on the host is gone
 * Running and stopped instances survive an agent restart: `list()` finds them again, and
 * `awaitReady` adopts one that runs.
 */
export interface InstanceDriver {
  /** The OS images this host holds for its instances (the heartbeat's `images`). */
  readonly images: ImageInventory;

  /** Every instance the host has (created and not terminated), running or not. */
  list(): Promise<HostInstance[]>;

  /**
   * Makes an instance the host does not have yet (its disk from `options.image`) and starts
   * it; resolves once it is ready. Repeating it for an instance an interrupted create left
   * half made finishes the job instead of failing. A create that fails may leave a half-made
   * instance or nothing at all (it failed before making anything): the agent keeps the
   * failure itself (agent/converge/failed-boots.ts), never only through `saveStatus`.
   */
  create(spec: DesiredInstance, options: BootOptions): Promise<Endpoints>;

  /**
   * Starts an instance the host has (stopped, or left half made by a create that failed),
   * with the disk it kept; resolves once it is ready. An unknown id is a DriverError.
   */
  start(spec: DesiredInstance, options: BootOptions): Promise<Endpoints>;

  /**
   * For an instance that already runs (just started, or found running after an agent
   * restart): resolves once it is ready. One that does not run (or is unknown) is a
   * DriverError.
   */
  awaitReady(spec: DesiredInstance, signal?: AbortSignal): Promise<Endpoints>;

  /** Where renters reach the instance; null when the host has no such instance. */
  endpoints(id: string, sshUser: string): Promise<Endpoints | null>;

  /**
   * Shuts the guest down (asking first, forcing after a timeout); its disk stays. An instance
   * that does not run, or is unknown, is left as it is.
   */
  stop(id: string): Promise<void>;

  /** Off at once without asking the guest (after a failed boot); its disk stays. */
  forceOff(id: string): Promise<void>;

  /**
   * Off at once and everything the instance had on the host deleted (its disk, never the image
   * it was made from). Unknown ids resolve too: a terminate repeated after an interrupted one
   * must succeed.
   */
  terminate(id: string): Promise<void>;

  /**
   * Remembers the instance's last transition with it, so that `list()` returns it after an
   * agent restart. Ignored for an instance the host does not have.
   */
  saveStatus(status: InstanceStatus): Promise<void>;
}

/** One instance as `list()` finds it. */
export interface HostInstance {
  id: string;
  /** Something runs it (booting or ready); false: stopped, its disk kept. */
  running: boolean;
  /** For logs only: what runs it, in the driver's own terms (QEMU: its process id). */
  runningAs: number | string | null;
  /** What `saveStatus` last kept with it; null before the first. */
  status: InstanceStatus | null;
}

export interface BootOptions {
  /** The host's GPUs as last read; the spec's `gpuIndexes` name some of them. */
  gpus: readonly GpuInfo[];
  /** Aborted: the server changed its mind; the boot ends with a DriverError. */
  signal?: AbortSignal;
  /**
   * The image the instance's disk is made from (what `images.ensure` handed out, fetched first
   * when needed), asked only when the instance has no disk yet. Absent: the host's own default.
   */
  image?: () => Promise<string>;
  /** How the image boots (its catalogue entry's `firmware`); absent: the host's default. */
  firmware?: CatalogueImage['firmware'];
  /**
   * Where a boot is on its way, for the renter ("downloading image (42%)", "booting"): a driver
   * that fetches what it runs itself (a container's OCI image) says so through this.
   */
  progress?: (progress: ProvisioningProgress) => void;
}

/** Where renters reach a ready instance. */
export interface Endpoints {
  ssh: InstanceStatus['ssh'];
  vnc: InstanceStatus['vnc'];
  /** The guest's SSH host keys as the driver saw them (OpenSSH `type base64` lines). */
  hostKeys?: string[];
  /** A container's image as the host resolved it (`sha256:…`); absent for VMs. */
  imageDigest?: string;
}

/** Bytes of an image fetched so far. */
export interface ImageProgress {
  bytes: number;
  totalBytes: number | null;
}

/**
 * The OS images a host holds, fetches and evicts. Behind the driver because what an image is
 * depends on how instances run: verified qcow2 files that virtual disks are overlays of
 * (`agent/images/`, for QEMU), or a container runtime's own image store.
 */
export interface ImageInventory {
  /** Reads what the host already holds (at agent start). */
  load(): Promise<void>;
  /** True when the host holds a verified copy of the image (no download needed). */
  holds(image: Pick<CatalogueImage, 'name' | 'sha256'>): boolean;
  /**
   * A reference to a verified copy of the image (for `BootOptions.image`), fetched first when
   * the host has none, held against eviction until `release(reference)`. `signal` only stops
   * this caller waiting.
   */
  ensure(
    image: CatalogueImage,
    onProgress?: (p: ImageProgress) => void,
    signal?: AbortSignal,
  ): Promise<string>;
  /** The boot that asked for `reference` has ended: the image may be evicted again. */
  release(reference: string): void;
  /** Every image held, being fetched or failed: the heartbeat's `images`. */
  statuses(): HostImageStatus[];
}

/** A driver refusing or failing an operation; its message is reported as the instance's error. */
export class DriverError extends Error {
  override name = 'DriverError';
}
