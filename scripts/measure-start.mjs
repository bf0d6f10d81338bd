// Time from `npm start` to the first 200 of GET / : node scripts/measure-start.mjs [DATA_DIR]
// Run twice with the same DATA_DIR to see a fresh and a second start.
import { spawn } from 'node:child_process';

const dataDir = process.argv[2] ?? `/tmp/rentgpu-measure-${Date.now()}`;
const port = 5123;
const began = performance.now();
const child = spawn(process.execPath, ['scripts/start.mjs'], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
for (;;) {
  try {
    const res = await fetch(`http://localhost:${port}/`);
    if (res.status === 200) break;
  } catch {}
  await new Promise((resolve) => setTimeout(resolve, 25));
}
console.log(`first 200 after ${Math.round(performance.now() - began)} ms (DATA_DIR ${dataDir})`);
child.kill('SIGTERM');
