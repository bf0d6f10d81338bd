// `npm run bench` (not part of `npm test`): see scripts/bench/run.ts.
import { spawnSync } from 'node:child_process';

const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
