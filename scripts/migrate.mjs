// `npm run migrate`: build what is missing or stale, then apply the database migrations to
// DATABASE_URL (else the embedded database in DATA_DIR) and exit: for deployments that migrate
// before rolling out. The server also migrates at start, under the same advisory lock.
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/migrate.js'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
