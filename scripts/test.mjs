// `npm test`: unit, API and the busybox-guest VM tests (vitest), then the real distribution
// guest on its own (two emulated VMs of its own: never beside the others'), then the browser
// tests (Playwright, which builds the app if needed and serves it on a fresh embedded database).
import { spawnSync } from 'node:child_process';

const vitest = 'node_modules/vitest/vitest.mjs';
const steps = [
  [
    'vitest',
    [
      vitest,
      'run',
      '--project',
      'unit',
      '--project',
      'api',
      '--project',
      'agent-e2e',
      '--project',
      'system',
    ],
  ],
  ['real guest (vitest)', [vitest, 'run', '--project', 'real-guest']],
  ['playwright', ['node_modules/@playwright/test/cli.js', 'test']],
];
let failed = 0;
for (const [name, args] of steps) {
  console.log(`\n── ${name} ──`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
