// `npm run bench` (not part of `npm test`): see scripts/bench/run.ts.
import { spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

// The server under test runs in the bench's process, with the flags it runs with everywhere
// (scripts/server-node-flags.mjs); the load generator's worker threads share them.
const result = spawnSync(
  process.execPath,
  [...SERVER_NODE_FLAGS, '--import', 'tsx', 'scripts/bench/run.ts'],
  {
    env: withServerEnv(process.env),
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
