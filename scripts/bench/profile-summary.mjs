/**
 * Sums CPU profiles (`.cpuprofile`, as BENCH_PROFILE writes them) into where the time went:
 * self time by package or by the repository's folder, then the inclusive time of the
 * functions whose place matches a pattern (each function counted once per sample).
 *
 *   node scripts/bench/profile-summary.mjs /tmp/p.rent-*.cpuprofile [--match server/] [--per N]
 *
 * `--per N` divides every figure by N (the pairs the profiled rounds made: ms per pair).
 * `--parts 'name=pattern;…'` adds each part's inclusive time: the samples with a frame whose
 * function and place (`name  place`, as the inclusive list prints them) match the pattern,
 * each sample counted once per part, and the part's share of the busy samples (what it costs
 * of the thread's CPU, as far as sampling tells: a sample also falls where the thread waited
 * for a core).
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
const parts = (option('--parts') ?? '')
  .split(';')
  .filter(Boolean)
  .map((part) => {
    const at = part.indexOf('=');
    return { name: part.slice(0, at), pattern: new RegExp(part.slice(at + 1)), time: 0 };
  });
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
    for (const part of parts) if ([...seen].some((key) => part.pattern.test(key))) part.time += t;
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
if (parts.length > 0) console.log('parts (inclusive; share of the busy samples):');
for (const part of parts)
  console.log(
    `${ms(part.time)}  ${((part.time / total) * 100).toFixed(1).padStart(5)}%  ${part.name}`,
  );
