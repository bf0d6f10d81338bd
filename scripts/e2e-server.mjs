// Runs the built server on a fresh embedded database for the browser tests, copying its
// output to a log file so tests can read what it prints (the e-mailed sign-in codes).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
const logPath = process.env.E2E_SERVER_LOG ?? 'test-results/e2e-server.log';
mkdirSync(path.dirname(logPath), { recursive: true });
const log = createWriteStream(logPath);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-e2e-'));
const child = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    DEMO_PROVISIONING_DELAY_MS: '1500',
    WORKER_INTERVAL_MS: '250',
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk) => {
    log.write(chunk);
    process.stdout.write(chunk);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 0));
