import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { IMAGE_NAME_PATTERN } from '../shared/contracts/images';
import { Agent, EnrollmentError } from './agent';
import { AgentApi } from './api-client';
import { AgentConfigError, parseAgentEnv } from './env';
import { FetchImageError, fetchImage } from './fetch-image';
import { detectAccelerator } from './inventory/host';
import { jsonLog } from './log';
import { QemuDriver } from './qemu/driver';

/**
 * `node agent/main.js` on a provider's host. SIGTERM/SIGINT stop the agent only: the virtual
 * machines keep running and the next start adopts them.
 */
/**
 * Who QEMU runs as when the agent itself is root (ADR 014): AGENT_QEMU_USER, else the
 * installer's rentgpu-agent user when it exists; null (with a warning) leaves QEMU root.
 */
async function qemuRunAs(configured: string | undefined): Promise<string | null> {
  if (process.getuid?.() !== 0) return null;
  if (configured) return configured;
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  if (passwd.split('\n').some((line) => line.startsWith(`${AGENT_USER}:`))) return AGENT_USER;
  jsonLog('qemu-runs-as-root', {
    hint: `the agent runs as root and no ${AGENT_USER} user exists: install it with the installer, or set AGENT_QEMU_USER`,
  });
  return null;
}

const AGENT_USER = 'rentgpu-agent';

/** OVMF's code and variable-store template, when both files are there. */
function uefiFirmware(code: string, vars: string) {
  if (existsSync(code) && existsSync(vars)) return { code, varsTemplate: vars };
  jsonLog('no-uefi-firmware', {
    code,
    vars,
    hint: 'images that boot with UEFI (Ubuntu cloud images) need the ovmf package',
  });
  return null;
}

/**
 * `--fetch-image [NAME]` (the installer, before the service first starts): fetch and verify
 * one catalogue image into the cache, print progress, exit 0 — or 1 with the reason.
 */
async function fetchImageOnce(env: ReturnType<typeof parseAgentEnv>, args: string[]) {
  const [name = null, ...extra] = args;
  if (extra.length > 0 || (name !== null && !IMAGE_NAME_PATTERN.test(name))) {
    throw new FetchImageError('usage: rentgpu-agent.mjs --fetch-image [IMAGE-NAME]');
  }
  await fetchImage({
    serverUrl: env.RENTGPU_SERVER_URL,
    stateDir: env.AGENT_STATE_DIR,
    name,
    limitBytes: Math.floor(env.AGENT_IMAGE_CACHE_GIB * 1024 ** 3),
    qemuImgBinary: env.AGENT_QEMU_IMG,
    out: (line) => process.stdout.write(`${line}\n`),
  });
  process.exit(0);
}

async function main() {
  const env = parseAgentEnv();
  const [command, ...args] = process.argv.slice(2);
  if (command === '--fetch-image') return fetchImageOnce(env, args);
  const accelerator = await detectAccelerator(env.AGENT_ALLOW_SOFTWARE_EMULATION);
  const testKernel = Boolean(env.AGENT_GUEST_KERNEL && env.AGENT_GUEST_INITRD);
  const driver = new QemuDriver({
    stateDir: env.AGENT_STATE_DIR,
    qemuBinary: env.AGENT_QEMU,
    qemuImgBinary: env.AGENT_QEMU_IMG,
    genisoimageBinary: env.AGENT_GENISOIMAGE,
    accelerator,
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
    // A stand-in until the server names the host's address (Agent replaces it in reports).
    publicHost: env.AGENT_PUBLIC_HOST ?? 'localhost',
    sshPorts: env.AGENT_SSH_PORTS,
    vncDisplays: env.AGENT_VNC_DISPLAYS,
    bootTimeoutMs: env.AGENT_BOOT_TIMEOUT_MS,
    stopTimeoutMs: env.AGENT_STOP_TIMEOUT_MS,
    gpuPassthrough: env.AGENT_GPU_PASSTHROUGH,
    qemuRunAs: await qemuRunAs(env.AGENT_QEMU_USER),
    firmware: uefiFirmware(env.AGENT_OVMF_CODE, env.AGENT_OVMF_VARS),
  });
  const agent = new Agent(
    {
      serverUrl: env.RENTGPU_SERVER_URL,
      stateDir: env.AGENT_STATE_DIR,
      enrollToken: env.AGENT_ENROLL_TOKEN ?? null,
      enrollTokenFile: env.AGENT_ENROLL_TOKEN_FILE ?? null,
      heartbeatIntervalMs: env.AGENT_HEARTBEAT_INTERVAL_MS,
      updateIntervalMs: env.AGENT_UPDATE_INTERVAL_MS,
      nvidiaSmi: env.AGENT_NVIDIA_SMI,
      accelerator,
      guestMemoryMib: env.AGENT_GUEST_MEMORY_MIB ?? null,
      publicHost: env.AGENT_PUBLIC_HOST ?? null,
      catalogueImages: !testKernel,
      imageCacheBytes: Math.floor(env.AGENT_IMAGE_CACHE_GIB * 1024 ** 3),
      qemuImgBinary: env.AGENT_QEMU_IMG,
    },
    new AgentApi(env.RENTGPU_SERVER_URL),
    driver,
    jsonLog,
  );
  const controller = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => controller.abort());
  }
  jsonLog('agent-start', {
    server: env.RENTGPU_SERVER_URL,
    stateDir: env.AGENT_STATE_DIR,
    accelerator,
  });
  await agent.run(controller.signal);
  jsonLog('agent-stop');
  process.exit(0);
}

main().catch((err: Error) => {
  if (err instanceof FetchImageError) console.error(`ERROR: ${err.message}`);
  else if (err instanceof AgentConfigError || err instanceof EnrollmentError)
    console.error(err.message);
  else console.error(err);
  process.exit(1);
});
