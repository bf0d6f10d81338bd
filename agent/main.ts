import { IMAGE_NAME_PATTERN } from '../shared/contracts/images';
import { Agent, EnrollmentError } from './agent';
import { AgentApi } from './api-client';
import { createDriver } from './create-driver';
import { AgentConfigError, parseAgentEnv } from './env';
import { FetchImageError, fetchImage } from './fetch-image';
import { detectAccelerator } from './inventory/host';
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

/**
 * `node agent/main.js` on a provider's host. SIGTERM/SIGINT stop the agent only: the virtual
 * machines keep running and the next start adopts them.
 */
async function main() {
  const env = parseAgentEnv();
  const [command, ...args] = process.argv.slice(2);
  if (command === '--fetch-image') return fetchImageOnce(env, args);
  const accelerator = await detectAccelerator(env.AGENT_ALLOW_SOFTWARE_EMULATION);
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
