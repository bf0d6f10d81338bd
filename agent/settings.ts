import type { ContainerProbe } from '../shared/contracts/agent-protocol';
import type { InstanceKind } from '../shared/contracts/instance-kind';
import type { Accelerator } from './inventory/host';
import type { ProbeOptions } from './inventory/readiness';

export const AGENT_VERSION = '0.1.0';

export interface AgentSettings {
  serverUrl: string;
  stateDir: string;
  enrollToken: string | null;
  /**
   * AGENT_ENROLL_TOKEN_FILE: a 0600 file holding the one-time token (how the installer passes
   * it, never on a command line); read at enrolment and deleted once a credential is stored.
   */
  enrollTokenFile?: string | null;
  heartbeatIntervalMs: number;
  updateIntervalMs: number;
  nvidiaSmi: string;
  accelerator: Accelerator;
  /** AGENT_GUEST_MEMORY_MIB: memory all guests may use together, reported in the inventory. */
  guestMemoryMib?: number | null;
  /** AGENT_PUBLIC_HOST; null: the address the server names in its heartbeat answers. */
  publicHost?: string | null;
  /**
   * false: instances boot the host's configured guest (AGENT_GUEST_KERNEL, the busybox test
   * guest, with AGENT_BASE_IMAGE or a blank disk) whatever catalogue image they name.
   */
  catalogueImages?: boolean;
  /**
   * How the host's readiness facts are read (agent/inventory/readiness.ts); each heartbeat
   * carries them and the server judges them (docs/decisions/021). Absent: none are sent.
   */
  readiness?: ProbeOptions;
  /** The kinds of instance this host runs (AGENT_DRIVERS), told in every heartbeat. */
  drivers?: InstanceKind[];
  /**
   * The container driver's readiness facts (docs/decisions/025), read with the GPU inventory
   * (every AGENT_UPDATE_INTERVAL_MS) and carried in each heartbeat's probe. Absent: no containers.
   */
  containerProbe?: () => Promise<ContainerProbe>;
  /** The clock failed boots' retries are timed by (ms); tests move it. Default: Date.now. */
  now?: () => number;
  /**
   * How long an SSH connection must stay open to count as a session for idle stop
   * (agent/inventory/ssh-sessions.ts; default 2 minutes). Tests shorten it.
   */
  sshSessionMinAgeMs?: number;
}
