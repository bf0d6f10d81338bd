// `npm start`: build what is missing or stale, then run the server (migrations and demo
// data are applied by the server itself at start).
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

buildIfStale();
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
  env: withServerEnv(process.env),
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
