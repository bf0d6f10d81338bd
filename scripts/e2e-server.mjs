// Runs the built server on a fresh embedded database for the browser tests, copying its
// output to a log file so tests can read what it prints (the e-mailed sign-in codes).
// PayPal is a local fake (server/test/fake-paypal.ts) that also serves the stand-in SDK; with
// E2E_PAYPAL=local-sandbox no PayPal is configured, so the app runs its built-in PayPal
// sandbox (server/modules/payments/sandbox), as on a newcomer's machine.
import { spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildIfStale, STAMP } from './build-if-stale.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

buildIfStale();

/** The environment both the template's server and the test server run with. */
const serverEnv = {
  DEMO_PROVISIONING_DELAY_MS: '1500',
  // The production default (1 s): each pass costs the embedded database a few tens of ms, and
  // at 250 ms the two servers' idle passes alone kept a quarter of a core busy all run long.
  WORKER_INTERVAL_MS: '1000',
  // Every browser test that presses Demo Login makes an account, all from 127.0.0.1.
  DEMO_LOGINS_PER_HOUR: '10000',
  // …and every test that signs in by e-mail asks for a code from there too.
  CODES_PER_IP_PER_HOUR: '10000',
  CODE_TRIES_PER_IP_PER_15_MIN: '10000',
  // A host that stops heartbeating is dark after 15 s, not 90 (e2e/gpu-share.spec.ts waits
  // for it; the tests that enrol hosts keep them heartbeating while they need them online).
  HOST_OFFLINE_AFTER_MS: '15000',
  // The hosts the browser tests play report 127.0.0.1 (e2e/gpu-share.spec.ts): a lab, said
  // explicitly, as the address rule is off by default everywhere (docs/decisions/013).
  ALLOW_PRIVATE_HOST_ADDRESSES: '1',
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
};

/**
 * A data folder already migrated and seeded, made once per build and day by running the
 * server on an empty folder and stopping it: a fresh embedded database takes the server
 * 6–12 s to create, migrate and seed, a copy of this one opens in about a second. Servers
 * started together each make their own and the first rename wins.
 */
async function dataTemplate() {
  const day = new Date().toISOString().slice(0, 10);
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim().slice(0, 16) : 'none';
  const dir = path.resolve(`dist/test/e2e-data-${stamp}-${day}`);
  if (existsSync(dir)) return dir;
  const making = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-e2e-template-'));
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
    env: withServerEnv({ ...serverEnv, DATA_DIR: making, PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      if (printed.includes('RentGPU is running at')) server.kill('SIGTERM');
    });
    server.on('exit', (code) =>
      printed.includes('RentGPU is running at') && code === 0
        ? resolve()
        : reject(new Error(`the template server exited with ${code}:\n${printed}`)),
    );
  });
  mkdirSync(path.dirname(dir), { recursive: true });
  try {
    renameSync(making, dir);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  return dir;
}
const localSandbox = process.env.E2E_PAYPAL === 'local-sandbox';
let fake = null;
if (!localSandbox) {
  const fakeModule = path.resolve('dist/test/fake-paypal.mjs');
  await build({
    entryPoints: ['server/test/fake-paypal.ts'],
    outfile: fakeModule,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  const { startFakePaypal } = await import(pathToFileURL(fakeModule).href);
  fake = await startFakePaypal({
    clientId: 'e2e-client',
    clientSecret: 'e2e-secret',
    requireApproval: true,
    sdkFile: path.resolve('e2e/paypal-sdk-stub.js'),
  });
}
const paypalEnv = fake
  ? {
      PAYPAL_CLIENT_ID: 'e2e-client',
      PAYPAL_CLIENT_SECRET: 'e2e-secret',
      PAYPAL_API_BASE: fake.url,
      PAYPAL_WEBHOOK_ID: 'WH-TEST',
      PAYPAL_SDK_URL: `${fake.url}/sdk/js`,
    }
  : {
      PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
      PAYPAL_API_BASE: '',
      PAYPAL_WEBHOOK_ID: '',
      PAYPAL_SDK_URL: '',
      PAYPAL_LOCAL_SANDBOX: 'true',
    };

const logPath = process.env.E2E_SERVER_LOG ?? 'test-results/e2e-server.log';
mkdirSync(path.dirname(logPath), { recursive: true });
const log = createWriteStream(logPath);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-e2e-'));
cpSync(await dataTemplate(), dataDir, { recursive: true });
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
  env: withServerEnv({ ...serverEnv, DATA_DIR: dataDir, ...paypalEnv }),
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk) => {
    log.write(chunk);
    process.stdout.write(chunk);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
child.on('exit', async (code) => {
  await fake?.close();
  // The run's database copy (about 44 MB) goes with the server: Playwright stops this process
  // with SIGTERM (playwright.config.ts, gracefulShutdown), so this runs.
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
