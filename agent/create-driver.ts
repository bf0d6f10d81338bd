import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ContainerProbe } from '../shared/contracts/agent-protocol';
import { ContainerDriver, type ContainerDriverOptions } from './container/driver';
import { probeContainers } from './container/probe';
import type { AgentEnv } from './env';
import type { Accelerator } from './inventory/host';
import { KindRouter } from './kind-router';
import type { Log } from './log';
import { QemuDriver } from './qemu/driver';

/**
 * The agent's driver: one per kind AGENT_DRIVERS names (docs/decisions/025), side by side
 * behind a KindRouter. The one file outside a driver's folder that imports one
 * (dependency-cruiser's `driver-behind-its-seam`): everything else in agent/ sees only
 * agent/driver.ts.
 */
export async function createDriver(
  env: AgentEnv,
  host: { accelerator: Accelerator; log: Log },
): Promise<KindRouter> {
  const kinds = new Set(env.AGENT_DRIVERS);
  // A stand-in until the server names the host's address (Agent replaces it in reports).
  const publicHost = env.AGENT_PUBLIC_HOST ?? 'localhost';
  return new KindRouter({
    ...(kinds.has('vm')
      ? {
          vm: new QemuDriver({
            stateDir: env.AGENT_STATE_DIR,
            qemuBinary: env.AGENT_QEMU,
            qemuImgBinary: env.AGENT_QEMU_IMG,
            genisoimageBinary: env.AGENT_GENISOIMAGE,
            accelerator: host.accelerator,
            baseImage: env.AGENT_BASE_IMAGE ?? null,
            kernel:
              env.AGENT_GUEST_KERNEL && env.AGENT_GUEST_INITRD
                ? {
                    kernel: env.AGENT_GUEST_KERNEL,
                    initrd: env.AGENT_GUEST_INITRD,
                    append: env.AGENT_GUEST_APPEND,
                  }
                : null,
            listenHost: env.AGENT_LISTEN_HOST,
            publicHost,
            sshPorts: env.AGENT_SSH_PORTS,
            vncDisplays: env.AGENT_VNC_DISPLAYS,
            bootTimeoutMs: env.AGENT_BOOT_TIMEOUT_MS,
            stopTimeoutMs: env.AGENT_STOP_TIMEOUT_MS,
            gpuPassthrough: env.AGENT_GPU_PASSTHROUGH,
            qemuRunAs: await qemuRunAs(env.AGENT_QEMU_USER, host.log),
            firmware: uefiFirmware(env.AGENT_OVMF_CODE, env.AGENT_OVMF_VARS, host.log),
            imageCacheBytes: Math.floor(env.AGENT_IMAGE_CACHE_GIB * 1024 ** 3),
            log: host.log,
          }),
        }
      : {}),
    ...(kinds.has('container')
      ? { container: new ContainerDriver(containerOptions(env, host.log)) }
      : {}),
  });
}

/** The container driver's settings (also what `--check` probes with). */
export function containerOptions(env: AgentEnv, log: Log): ContainerDriverOptions {
  return {
    stateDir: env.AGENT_STATE_DIR,
    listenHost: env.AGENT_LISTEN_HOST,
    publicHost: env.AGENT_PUBLIC_HOST ?? 'localhost',
    sshPorts: env.AGENT_CONTAINER_SSH_PORTS,
    bootTimeoutMs: env.AGENT_BOOT_TIMEOUT_MS,
    stopTimeoutMs: env.AGENT_STOP_TIMEOUT_MS,
    podmanBinary: env.AGENT_PODMAN,
    podmanFlags: env.AGENT_PODMAN_FLAGS,
    runtime: env.AGENT_CONTAINER_RUNTIME,
    cdiKind: env.AGENT_CDI_KIND,
    dropbearBinary: env.AGENT_DROPBEAR,
    dropbearkeyBinary: env.AGENT_DROPBEARKEY,
    maxImageBytes: Math.floor(env.AGENT_CONTAINER_MAX_IMAGE_GIB * 1024 ** 3),
    pullTmpDir: env.AGENT_PULL_TMPDIR,
    log,
  };
}

const AGENT_USER = 'rentgpu-agent';

/**
 * Who QEMU runs as when the agent itself is root (ADR 014): AGENT_QEMU_USER, else the
 * installer's rentgpu-agent user when it exists; null (with a warning) leaves QEMU root.
 */
async function qemuRunAs(configured: string | undefined, log: Log): Promise<string | null> {
  if (process.getuid?.() !== 0) return null;
  if (configured) return configured;
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  if (passwd.split('\n').some((line) => line.startsWith(`${AGENT_USER}:`))) return AGENT_USER;
  log('qemu-runs-as-root', {
    hint: `the agent runs as root and no ${AGENT_USER} user exists: install it with the installer, or set AGENT_QEMU_USER`,
  });
  return null;
}

/** OVMF's code and variable-store template, when both files are there. */
function uefiFirmware(code: string, vars: string, log: Log) {
  if (existsSync(code) && existsSync(vars)) return { code, varsTemplate: vars };
  log('no-uefi-firmware', {
    code,
    vars,
    hint: 'images that boot with UEFI (Ubuntu cloud images) need the ovmf package',
  });
  return null;
}

/** The container driver's readiness facts (docs/decisions/025); `trial` runs a real container. */
export function probeContainerHost(env: AgentEnv, trial: boolean): Promise<ContainerProbe> {
  const driver = new ContainerDriver(containerOptions(env, () => {}));
  return probeContainers({
    podman: driver.podman,
    trial,
    trialImage: env.AGENT_CONTAINER_TRIAL_IMAGE ?? null,
    sshBundle: { dir: driver.bundleDir, dropbear: env.AGENT_DROPBEAR },
    cdiKind: env.AGENT_CDI_KIND,
    nvidiaCtk: env.AGENT_NVIDIA_CTK,
  });
}
