import { existsSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_NAME_PATTERN } from '../shared/contracts/images';
import { hostReadiness, readinessReport } from '../shared/rules/host-readiness';
import { Agent } from './agent';
import { AgentApi } from './api-client';
import { createDriver, probeContainerHost } from './create-driver';
import { EnrollmentError } from './enrollment';
import { AgentConfigError, parseAgentEnv } from './env';
import { FetchImageError, fetchImage } from './fetch-image';
import { type Accelerator, detectAccelerator, readHostInventory } from './inventory/host';
import { type ProbeOptions, probeReadiness } from './inventory/readiness';
import { readHostGpus } from './inventory/vfio-gpus';
import { jsonLog } from './log';

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

/** Where the readiness facts come from (docs/decisions/021). */
function probeOptions(env: ReturnType<typeof parseAgentEnv>): ProbeOptions {
  return {
    softwareEmulation: env.AGENT_ALLOW_SOFTWARE_EMULATION,
    gpuPassthrough: env.AGENT_GPU_PASSTHROUGH,
    baseImage: env.AGENT_BASE_IMAGE ?? null,
    testKernel: Boolean(env.AGENT_GUEST_KERNEL && env.AGENT_GUEST_INITRD),
    imagesDir: path.join(env.AGENT_STATE_DIR, 'images'),
  };
}

/** The host as the server will judge it: inventory, nvidia-smi's answer, the probe, the rules. */
async function readiness(
  env: ReturnType<typeof parseAgentEnv>,
  accelerator: Accelerator,
  trial: boolean,
) {
  const gpus = await readHostGpus({ nvidiaSmi: env.AGENT_NVIDIA_SMI });
  // The disk the state folder is (or will be) on: `--check` creates nothing (the installer's
  // dry run runs it before the folder exists).
  let diskDir = env.AGENT_STATE_DIR;
  while (!existsSync(diskDir) && path.dirname(diskDir) !== diskDir) diskDir = path.dirname(diskDir);
  const host = await readHostInventory(diskDir, accelerator);
  const container = env.AGENT_DRIVERS.includes('container')
    ? await probeContainerHost(env, trial)
    : null;
  const probe = await probeReadiness(probeOptions(env), gpus, container);
  return hostReadiness({ ...host, readiness: probe, drivers: env.AGENT_DRIVERS }, gpus);
}

/**
 * `--check` (the installer runs it, `--dry-run` included): what this host can really run,
 * by the rules the server applies (shared/rules/host-readiness.ts); exit 0 when ready, 1 not.
 */
async function checkOnce(env: ReturnType<typeof parseAgentEnv>, accelerator: Accelerator) {
  // A real trial container at --check (the installer's), not at every heartbeat.
  const verdict = await readiness(env, accelerator, true);
  for (const line of readinessReport(verdict)) process.stdout.write(`${line}\n`);
  process.exit(verdict.ready ? 0 : 1);
}

/**
 * `node agent/main.js` on a provider's host. SIGTERM/SIGINT stop the agent only: the virtual
 * machines keep running and the next start adopts them.
 */
async function main() {
  const env = parseAgentEnv();
  const [command, ...args] = process.argv.slice(2);
  if (command === '--fetch-image') return fetchImageOnce(env, args);
  const accelerator = await detectAccelerator(env.AGENT_ALLOW_SOFTWARE_EMULATION);
  if (command === '--check') return checkOnce(env, accelerator);
  const testKernel = Boolean(env.AGENT_GUEST_KERNEL && env.AGENT_GUEST_INITRD);
  const driver = await createDriver(env, { accelerator, log: jsonLog });
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
      readiness: probeOptions(env),
      sshSessionMinAgeMs: env.AGENT_SSH_SESSION_MIN_AGE_MS,
      drivers: driver.kinds,
      ...(env.AGENT_DRIVERS.includes('container')
        ? { containerProbe: () => probeContainerHost(env, false) }
        : {}),
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
  // Said once at start; the server judges every heartbeat by the same rules.
  const verdict = await readiness(env, accelerator, false);
  jsonLog(verdict.ready ? 'host-ready' : 'host-not-ready', {
    report: readinessReport(verdict),
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
