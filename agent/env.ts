import path from 'node:path';
import { z } from 'zod';
import {
  AGENT_HEARTBEAT_INTERVAL_MS,
  AGENT_UPDATE_INTERVAL_MS,
  hostAddress,
} from '../shared/contracts/agent-protocol';
import { INSTANCE_KINDS, type InstanceKind } from '../shared/contracts/instance-kind';
import { SSH_SESSION_MIN_AGE_MS } from './inventory/ssh-sessions';

/**
 * The agent's configuration: the one place in agent/ that reads process.env. Parsed once at
 * start; a bad value stops the agent with a message naming the variable.
 */
const range = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const m = /^(\d+)-(\d+)$/.exec(value.trim());
      const lo = Number(m?.[1]);
      const hi = Number(m?.[2]);
      if (!m || lo > hi || hi > 65_535) {
        ctx.addIssue({ code: 'custom', message: 'must be a range like 22000-22999' });
        return z.NEVER;
      }
      return [lo, hi] as const;
    });
const bool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

const envSchema = z.object({
  /** Where the RentGPU server is, e.g. https://rentgpu.example (the agent calls /api/v1/agents). */
  RENTGPU_SERVER_URL: z
    .string()
    .url()
    // zod runs this even after .url() failed: a text that is no URL must not throw here.
    .refine(
      (v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol),
      'must be http(s)://',
    ),
  /** One-time enrolment token; needed only until the credential is stored. */
  AGENT_ENROLL_TOKEN: z.string().min(1).optional(),
  /**
   * A file holding the one-time token (the installer writes it, mode 0600, in the state
   * folder); read at enrolment and deleted once the credential is stored.
   */
  AGENT_ENROLL_TOKEN_FILE: z.string().min(1).optional(),
  AGENT_STATE_DIR: z.string().min(1).default('/var/lib/rentgpu-agent'),
  AGENT_HEARTBEAT_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(200)
    .default(AGENT_HEARTBEAT_INTERVAL_MS),
  /**
   * How long an SSH connection to an instance must stay open to count as a session that keeps
   * it from being idle-stopped (agent/inventory/ssh-sessions.ts). Default 2 minutes: sshd drops
   * connections that have not logged in by then.
   */
  AGENT_SSH_SESSION_MIN_AGE_MS: z.coerce.number().int().min(0).default(SSH_SESSION_MIN_AGE_MS),
  /** How often the GPU inventory (nvidia-smi) is read again. */
  AGENT_UPDATE_INTERVAL_MS: z.coerce.number().int().min(200).default(AGENT_UPDATE_INTERVAL_MS),
  AGENT_NVIDIA_SMI: z.string().min(1).default('nvidia-smi'),
  /**
   * The kinds of instance this host runs (docs/decisions/025), comma-separated: `vm` (QEMU,
   * agent/qemu/), `container` (Podman, agent/container/), or both. Each heartbeat names them;
   * the server places only those kinds here.
   */
  AGENT_DRIVERS: z
    .string()
    .default('vm')
    .transform((value, ctx) => {
      const kinds = [...new Set(value.split(',').map((k) => k.trim()))];
      if (
        kinds.length === 0 ||
        kinds.some((k) => !(INSTANCE_KINDS as readonly string[]).includes(k))
      ) {
        ctx.addIssue({ code: 'custom', message: 'must be vm, container or vm,container' });
        return z.NEVER;
      }
      return (kinds as InstanceKind[]).sort();
    }),
  /** Podman (the container driver): the program, flags before each command, the OCI runtime. */
  AGENT_PODMAN: z.string().min(1).default('podman'),
  AGENT_PODMAN_FLAGS: z
    .string()
    .default('')
    .transform((v) => v.split(/\s+/).filter(Boolean)),
  AGENT_CONTAINER_RUNTIME: z.string().min(1).default('runc'),
  /** The CDI kind the host's GPUs are named under (`nvidia-ctk cdi generate` writes nvidia.com/gpu). */
  AGENT_CDI_KIND: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]*\/[a-z0-9][a-z0-9._-]*$/, { message: 'must be vendor/class' })
    .default('nvidia.com/gpu'),
  /** Host ports forwarded to containers' SSH (apart from the VMs' AGENT_SSH_PORTS). */
  AGENT_CONTAINER_SSH_PORTS: range('23000-23999'),
  /** An image larger than this (unpacked) is refused, in GiB. */
  AGENT_CONTAINER_MAX_IMAGE_GIB: z.coerce.number().positive().max(1_000_000).default(100),
  /** The SSH server the agent supplies to images without one (Debian's dropbear-bin). */
  AGENT_DROPBEAR: z.string().min(1).default('/usr/sbin/dropbear'),
  AGENT_DROPBEARKEY: z.string().min(1).default('/usr/bin/dropbearkey'),
  /**
   * Where each container pull gets a folder of its own (its TMPDIR: the bytes podman has
   * copied so far are the renter's progress). Default: TMPDIR, else /var/tmp, as containers/image.
   */
  AGENT_PULL_TMPDIR: z.string().min(1).optional(),
  /** The image `--check` runs its trial container from (held by podman; nothing is pulled). */
  AGENT_CONTAINER_TRIAL_IMAGE: z.string().min(1).optional(),
  /** NVIDIA Container Toolkit's CLI, asked for its version (readiness). */
  AGENT_NVIDIA_CTK: z.string().min(1).default('nvidia-ctk'),
  AGENT_QEMU: z.string().min(1).default('qemu-system-x86_64'),
  AGENT_QEMU_IMG: z.string().min(1).default('qemu-img'),
  /**
   * When the agent runs as root (the installer runs it as rentgpu-agent), the user its QEMUs
   * switch to; default rentgpu-agent when that user exists (see main.ts).
   */
  AGENT_QEMU_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'must be a user name')
    .optional(),
  AGENT_GENISOIMAGE: z.string().min(1).default('genisoimage'),
  /** The provider's base image (an Ubuntu cloud image); instance disks are overlays over it. */
  AGENT_BASE_IMAGE: z.string().min(1).optional(),
  /**
   * Size limit of the OS image cache (AGENT_STATE_DIR/images/), in GiB: above it the least
   * recently used images no instance uses are evicted.
   */
  AGENT_IMAGE_CACHE_GIB: z.coerce.number().positive().max(1_000_000).default(50),
  /**
   * UEFI firmware for images that boot from their own disk (cloud images): OVMF's code and the
   * template of its variable store (each instance gets a copy). Debian's and Ubuntu's `ovmf`.
   */
  AGENT_OVMF_CODE: z.string().min(1).default('/usr/share/OVMF/OVMF_CODE_4M.fd'),
  AGENT_OVMF_VARS: z.string().min(1).default('/usr/share/OVMF/OVMF_VARS_4M.fd'),
  /**
   * Direct kernel boot (the busybox test guest): kernel and initrd paths, optional command
   * line. Set, every instance boots this guest and catalogue images are not fetched.
   */
  AGENT_GUEST_KERNEL: z.string().min(1).optional(),
  AGENT_GUEST_INITRD: z.string().min(1).optional(),
  AGENT_GUEST_APPEND: z
    .string()
    .default(
      'console=ttyS0 quiet panic=-1 nokaslr mitigations=off tsc=reliable no_timer_check 8250.nr_uarts=1',
    ),
  /** Software emulation (TCG) when KVM is not usable: for tests only, far too slow for renters. */
  AGENT_ALLOW_SOFTWARE_EMULATION: bool('false'),
  /** Pass the instance's GPUs through with vfio-pci (the GPUs must be bound to vfio-pci). */
  AGENT_GPU_PASSTHROUGH: bool('true'),
  /** Address SSH forwards and VNC listen on. */
  AGENT_LISTEN_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * The address renters connect to. Unset: the one the server tells the agent (the public name
   * the provider set for the host, else the address the agent calls from). The server accepts
   * only the host's own addresses (docs/decisions/013-hosts-are-untrusted.md).
   */
  AGENT_PUBLIC_HOST: hostAddress.optional(),
  AGENT_SSH_PORTS: range('22000-22999'),
  /** VNC displays (port 5900 + N); the installer asks providers to open 5900-5999. */
  AGENT_VNC_DISPLAYS: range('0-99'),
  /** Memory all guests may use together, in MiB (default: 80% of the host's). */
  AGENT_GUEST_MEMORY_MIB: z.coerce.number().int().min(128).optional(),
  AGENT_BOOT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
  AGENT_STOP_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
});

export type AgentEnv = ReturnType<typeof parseAgentEnv>;

export class AgentConfigError extends Error {
  override name = 'AgentConfigError';
}

export function parseAgentEnv(source: NodeJS.ProcessEnv = process.env) {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new AgentConfigError(`Invalid agent configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  if ((e.AGENT_GUEST_KERNEL === undefined) !== (e.AGENT_GUEST_INITRD === undefined)) {
    throw new AgentConfigError(
      'Invalid agent configuration:\n  AGENT_GUEST_KERNEL and AGENT_GUEST_INITRD go together',
    );
  }
  const vncHi = e.AGENT_VNC_DISPLAYS[1];
  if (vncHi + 5900 > 65_535) {
    throw new AgentConfigError('Invalid agent configuration:\n  AGENT_VNC_DISPLAYS too high');
  }
  return {
    ...e,
    AGENT_STATE_DIR: path.resolve(e.AGENT_STATE_DIR),
    AGENT_PULL_TMPDIR: e.AGENT_PULL_TMPDIR ?? present.TMPDIR ?? '/var/tmp',
  };
}
