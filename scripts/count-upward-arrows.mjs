// Counts the server's import arrows that run upward (issue 21): node scripts/count-upward-arrows.mjs
// It reads `depcruise --output-type json server` (every import, type-only ones included; test
// files left out) and prints two counts, with each arrow when given --list:
//
// - "issue": the issue's own count. Lower layer = server/lib/, server/plugins/, server/db/,
//   server/types.ts and server/deps.ts; an arrow is upward when it runs from the lower layer into
//   server/modules/, or from a module into server/types.ts (which imported module services).
// - "layers": the layering of docs/architecture.md, where deps.ts is the composition root above
//   the modules. Ranks, low to high: 0 server/env.ts, db/, lib/; 1 plugins/, types.ts;
//   2 modules/; 3 worker/, seed/, deps.ts; 4 app.ts, main.ts, test/. An arrow is upward when it
//   runs to a higher rank.
import { execFileSync } from 'node:child_process';

const list = process.argv.includes('--list');
const json = execFileSync(
  'npx',
  ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'server'],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
const isTest = (file) => /\.test\.ts$/.test(file);
const arrows = [];
for (const module of JSON.parse(json).modules) {
  if (!module.source.startsWith('server/') || isTest(module.source)) continue;
  for (const dependency of module.dependencies) {
    if (dependency.resolved.startsWith('server/')) {
      arrows.push([module.source, dependency.resolved]);
    }
  }
}

const lower = /^server\/(lib|plugins|db)\/|^server\/(types|deps)\.ts$/;
const issue = arrows.filter(
  ([from, to]) =>
    (lower.test(from) && to.startsWith('server/modules/')) ||
    (from.startsWith('server/modules/') && to === 'server/types.ts'),
);

function rank(file) {
  if (/^server\/(env\.ts|db\/|lib\/)/.test(file)) return 0;
  if (/^server\/(plugins\/|types\.ts)/.test(file)) return 1;
  if (file.startsWith('server/modules/')) return 2;
  if (/^server\/(worker\/|seed\/|deps\.ts)/.test(file)) return 3;
  return 4;
}
const layers = arrows.filter(([from, to]) => rank(from) < rank(to));

const show = (name, found) => {
  console.log(`${name}: ${found.length}`);
  if (list) for (const [from, to] of found) console.log(`  ${from} -> ${to}`);
};
show('issue (lib, plugins, db, types.ts, deps.ts -> modules; modules -> types.ts)', issue);
show('layers (deps.ts as the composition root)', layers);
