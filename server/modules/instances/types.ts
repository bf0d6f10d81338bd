import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import type { ReportedState } from '../../../shared/rules/instance-lifecycle';
import type { Tx } from '../../db/client';
import type { Images } from '../images/catalogue';
import type { ContainerTemplateImages } from './container-images';
import type { AlertRecipient, InstanceRow } from './repo';

export type { AlertRecipient };

export interface InstancesConfig {
  platformFeeBps: number;
  /** The image catalogue a launch checks a template's image against (the default when not given). */
  images?: Images;
  /** Each template's container image (CONTAINER_TEMPLATE_IMAGES_FILE; the defaults when not given). */
  containerImages?: ContainerTemplateImages;
  provisioningTimeoutMs: number;
}

export interface RentOptions {
  /** Runs last inside the rent's transaction (the route stores its Idempotency-Key answer). */
  record?: (tx: Tx, created: InstanceRow) => Promise<void>;
  /** The API key that launches it (public API): its spend counts toward the key's caps too. */
  apiKeyId?: string;
}

export type EndReason =
  | 'user'
  | 'expiry'
  | 'provisioning_timeout'
  | 'api'
  | 'insufficient_credits'
  | 'host_failed'
  | 'demo_cleanup'
  | 'deadline_stop'
  | 'deadline_terminate'
  | 'spend_cap'
  | 'idle_stop'
  | 'preempted';

export interface HostReport {
  instanceId: number;
  /** The generation the host acted on; a report of an older one is ignored. */
  generation: number;
  state: ReportedState;
  /** When it happened (defaults to now). */
  at?: Date;
  connection?: {
    sshHost?: string;
    sshPort?: number;
    sshUsername?: string;
    vncAddress?: string;
    /** The guest's SSH host key line and its fingerprint (the server computed it). */
    sshHostKey?: string;
    sshHostKeyFingerprint?: string;
  };
}

/** Where the web console logs in: the instance's SSH address and the platform's key. */
export interface ConsoleTarget {
  instanceId: number;
  /** The instance's generation now: the host key is pinned per run (console/guards.ts). */
  generation: number;
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /**
   * The guest's SSH host key as its host reported it with this run's readiness (its OpenSSH
   * line); the console accepts that key and no other. Null: trust on first use, per run.
   */
  hostKey: string | null;
}

export interface CreateMeteredInput {
  gpuListingId: number;
  source: 'vm' | 'deploy' | 'api';
  /** What runs it (docs/decisions/025; a VM when not named); a container names its image. */
  kind?: InstanceKind;
  /** kind container: the OCI image reference it runs (as asked, or its template's). */
  containerImage?: string | null;
  template?: string | null;
  storageGb: number;
  /**
   * The VM's shape (VM dashboard: 2–16 vCPUs, 8–128 GB), fitted at creation to one GPU's share
   * of the listing's host (shared/rules/gpu-share.ts).
   */
  cpus?: number;
  memoryGb?: number;
  /** The fields of the shape the renter named: beyond the share they are refused (400), not fitted. */
  askedShape?: { cpus?: number; memoryGb?: number };
  /** The template's setup, handed to the host as cloud-init user-data. */
  userData?: string | null;
  /** The platform's per-instance key pair for the web console: `generateSshKeyPair()` (lib/ssh-keypair.ts). */
  platformKey?: { publicKey: string; privateKey: string } | null;
  /** The renter's deadlines (checked by the caller: future, within a year). */
  deadlines?: Deadlines;
  /** Idle stop as asked, or the account default (docs/decisions/019); absent: off. */
  idleStop?: IdleStop;
}

/** "Stop when idle": minutes (0: off) under `thresholdPercent` with no SSH or web console session. */
export interface IdleStop {
  minutes: number;
  thresholdPercent: number;
}

/** A metered instance's "stop at" and "terminate at"; null clears one, absent leaves it. */
export interface Deadlines {
  stopAt?: Date | null;
  terminateAt?: Date | null;
}
