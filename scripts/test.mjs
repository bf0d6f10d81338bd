// `npm test`: unit and API tests (vitest), then the browser tests (Playwright, which
// builds the app if needed and serves it on a fresh embedded database).
import { spawnSync } from 'node:child_process';

const steps = [
  ['vitest', ['node_modules/vitest/vitest.mjs', 'run']],
  ['playwright', ['node_modules/@playwright/test/cli.js', 'test']],
];
let failed = 0;
for (const [name, args] of steps) {
  console.log(`\n── ${name} ──`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
