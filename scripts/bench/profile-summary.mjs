/**
 * Sums CPU profiles (`.cpuprofile`, as BENCH_PROFILE writes them) into where the time went:
 * self time by package or by the repository's folder, then the inclusive time of the
 * functions whose place matches a pattern (each function counted once per sample).
 *
 *   node scripts/bench/profile-summary.mjs /tmp/p.rent-*.cpuprofile [--match server/] [--per N]
 *
 * `--per N` divides every figure by N (the pairs the profiled rounds made: ms per pair).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const match = new RegExp(option('--match') ?? 'server/');
const per = Number(option('--per') ?? 1);
const root = `${path.resolve(import.meta.dirname, '../..')}/`;

/** A frame's place: an npm package, a part of Node, or a folder of this repository. */
function placeOf(url) {
  if (!url) return '(native)';
  const npm = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith('node:')) return url.startsWith('node:internal') ? 'node:internal' : url;
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith(root)) return file.slice(root.length).split('/').slice(0, 3).join('/');
  return url;
}

const self = new Map();
const inclusive = new Map();
let total = 0;
const add = (map, key, t) => map.set(key, (map.get(key) ?? 0) + t);
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id, i) => {
    const t = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') return;
    total += t;
    add(self, frame.functionName.startsWith('(') ? frame.functionName : placeOf(frame.url), t);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const f = nodes.get(at).callFrame;
      const key = `${f.functionName || '(anonymous)'}  ${placeOf(f.url)}`;
      if (!seen.has(key)) add(inclusive, key, t);
      seen.add(key);
    }
  });
}
const ms = (t) => (t / per).toFixed(per === 1 ? 0 : 3).padStart(9);
console.log(`busy ${ms(total)} ms${per === 1 ? '' : ` per ${per}th`} — self time by place:`);
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${ms(t)}  ${k}`);
console.log(`inclusive, functions at ${match}:`);
for (const [k, t] of [...inclusive]
  .filter(([k]) => match.test(k))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 40))
  console.log(`${ms(t)}  ${k}`);
