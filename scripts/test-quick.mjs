// `npm run test:quick [-- [base] [--list] [--wide]]`: the unit and API tests of what this branch
// changes, in a few minutes, before the whole `npm test`. What changed: the files that differ
// from the merge base with `main` (or `base`), committed or not, and the untracked ones. Which
// tests: Vitest's own `related` rule (a test file runs when it or a module it imports, however
// deeply, changed) on the graph Vitest builds, with the walk stopped at the two hubs that import
// nearly everything (see graphOf; `--wide`: not stopped), plus what an import graph cannot see:
//   - a change to what every test stands on (the dependencies, the Vitest and TypeScript
//     configuration, the migrations every API test's database is made from, the global setup)
//     runs every unit and API test;
//   - the tests that run a program as a child process rather than import it: the server
//     (server/main.test.ts), the CLI (bin/, cli/: the CLI tests), the agent (agent/: the
//     installer and download tests), and the test that reads the sources' text (plans/seams);
//   - a file that is not a module (a fixture, install.sh, docs/openapi.json) runs the tests
//     whose text names it (by its path, or by its name from a folder above it).
// It prints each changed file with what it leads to, then each test file it runs and why
// (`--list`: only that).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createVitest } from 'vitest/node';
import { redisAnswers } from './test-services.mjs';

const root = process.cwd();
const git = (...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');

/** The merge base with the named branch (main, else origin/main); null when neither exists. */
function mergeBase(ref) {
  for (const candidate of ref ? [ref] : ['main', 'origin/main']) {
    try {
      return git('merge-base', 'HEAD', candidate)[0] ?? null;
    } catch {
      // not a branch here: the next one
    }
  }
  return null;
}

const listOnly = process.argv.includes('--list');
const wide = process.argv.includes('--wide');
const baseRef = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const base = mergeBase(baseRef);
if (!base) {
  console.error(`test:quick: no merge base with ${baseRef ?? 'main or origin/main'}`);
  process.exit(2);
}
// Committed since the base, staged, unstaged (the working tree against the base), untracked.
const changed = [
  ...new Set([
    ...git('diff', '--name-only', base),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]),
].sort();

/** What every unit and API test stands on: a change here runs them all. */
const EVERYTHING = [
  /^package(-lock)?\.json$/,
  /^vitest\.config\.ts$/,
  /^vite\.config\.ts$/,
  /^tsconfig(\.[\w-]+)?\.json$/,
  /^server\/test\/global-setup\.ts$/,
  /^server\/db\/migrations\//,
];
/** Programs the tests start as child processes (or read as text): no import leads to them. */
const PROGRAMS = [
  {
    when: /^(server\/(main|app|deps|env|configured|migrate)\.ts|server\/(plugins|worker|db)\/(?!.*\.test\.ts$).*)$/,
    tests: ['server/main.test.ts'],
    why: 'starts and stops the server as a process',
  },
  {
    when: /^(server|shared|cli|web|agent)\/(?!.*\.test\.tsx?$).*\.tsx?$/,
    tests: ['server/modules/instances/plans/seams.test.ts'],
    why: 'reads the sources as text',
  },
  {
    when: /^(bin|cli)\//,
    tests: [
      'server/modules/public-api/cli.test.ts',
      'server/modules/public-api/cli-events.test.ts',
    ],
    why: 'runs the CLI as a process',
  },
  {
    when: /^agent\/(?!.*\.test\.ts$)/,
    tests: ['agent/install/install.test.ts', 'server/modules/hosts/downloads.test.ts'],
    why: 'bundles and runs the agent',
  },
];
const MODULE = /\.(ts|tsx|mts|js|mjs|cjs)$/;

if (await redisAnswers()) process.env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
else
  console.log('No Redis on 127.0.0.1:6379: the tests of limits shared through Redis are skipped.');

const vitest = await createVitest(
  'test',
  { watch: false, run: true, project: ['unit', 'api'] },
  {},
  {},
);
const all = await vitest.globTestSpecifications();
const relative = (file) => path.relative(root, file);
/** Each test file to run (relative path) → why (a few words each). */
const why = new Map();
const add = (file, reason) => {
  const list = why.get(file) ?? [];
  if (!list.includes(reason)) list.push(reason);
  why.set(file, list);
};
const testTexts = new Map(all.map((s) => [relative(s.moduleId), null]));
const textOf = (file) => {
  if (testTexts.get(file) === null) testTexts.set(file, readFileSync(file, 'utf8'));
  return testTexts.get(file);
};

/**
 * The files a test file stands on, through the transforms Vitest made of them (its `related`
 * rule walks the same): the test's imports, deeply. Narrow (the default), the walk does not go
 * into the two hubs that import nearly every module (server/app.ts registers every module's
 * routes; server/seed/factories.ts, which every API test's setup imports, seeds every kind of
 * row): through them every API test would stand on everything (a change to shared/rules/
 * gpu-share.ts picked 104 of 183 files, 64 without them). A test in server/modules/<name>/ starts
 * from that module's own sources too: its routes are what it calls through the app. The tests
 * of the app as a whole (WHOLE_APP: every route fuzzed, the OpenAPI document) run when what
 * every route stands on changes (APP_SURFACE: a route file, a plugin, the app's wiring, a shared
 * contract), with the narrow graph besides; under the whole graph they were a fifth of the
 * suite's time for any change to the server.
 */
const HUBS = ['server/app.ts', 'server/seed/factories.ts'].map((file) => path.join(root, file));
const WHOLE_APP = [
  /^server\/[^/]+\.test\.ts$/,
  /^server\/modules\/public-api\/(openapi|fuzz)\.test\.ts$/,
];
const APP_SURFACE =
  /^(server\/(app|deps|env|configured|main)\.ts|server\/plugins\/.*|server\/modules\/.*routes\.ts|shared\/contracts\/.*|shared\/error-codes\.ts)$/;
async function graphOf(spec, narrow) {
  const vite = spec.project.vite;
  const deps = new Map(); // file → the file whose import led to it
  const walk = async (file, from) => {
    if (deps.has(file)) return;
    deps.set(file, from);
    if (narrow && HUBS.includes(file)) return;
    const transformed =
      vite.environments.ssr.moduleGraph.getModuleById(file)?.transformResult ||
      (await vite.environments.ssr.transformRequest(file));
    if (!transformed) return;
    const imports = [...(transformed.deps || []), ...(transformed.dynamicDeps || [])];
    await Promise.all(
      imports.map(async (dep) => {
        const fsPath = dep.startsWith('/@fs/') ? dep.slice(4) : path.join(root, dep);
        if (!fsPath.includes('node_modules') && existsSync(fsPath)) await walk(fsPath, file);
      }),
    );
  };
  const test = relative(spec.moduleId);
  await walk(spec.moduleId, null);
  const home = /^server\/modules\/[^/]+\//.exec(test)?.[0];
  if (narrow && home) {
    for (const file of git('ls-files', '--cached', '--others', '--exclude-standard', home)) {
      if (MODULE.test(file) && !file.endsWith('.test.ts')) await walk(path.join(root, file), null);
    }
  }
  return deps;
}
const graphs = new Map();
for (const spec of all) graphs.set(spec, await graphOf(spec, !wide));
/** The test files whose graph holds `file` (absolute), each with why. */
function testsOf(file) {
  const out = [];
  for (const [spec, deps] of graphs) {
    if (spec.moduleId === file) out.push([spec, 'changed']);
    else if (deps.has(file)) {
      // The chain of imports, from the test (or its module's sources) to the file.
      const chain = [];
      for (let at = file; at; at = deps.get(at)) chain.unshift(relative(at));
      const via = chain.length > 2 ? ` (${chain.slice(0, -1).join(' → ')} → …)` : '';
      out.push([spec, `imports ${relative(file)}${via}`]);
    }
  }
  return out;
}

let everything = null;
const leadsTo = [];
for (const file of changed) {
  const found = new Set();
  const reasons = [];
  if (EVERYTHING.some((re) => re.test(file))) {
    everything ??= file;
    leadsTo.push(`${file}: every unit and API test stands on it`);
    continue;
  }
  if (!wide && APP_SURFACE.test(file)) {
    for (const test of testTexts.keys()) {
      if (WHOLE_APP.some((re) => re.test(test))) {
        add(test, `tests every route (${file})`);
        found.add(test);
      }
    }
  }
  for (const { when, tests, why: reason } of PROGRAMS) {
    if (!when.test(file)) continue;
    for (const test of tests) {
      if (testTexts.has(test)) {
        add(test, `${reason} (${file})`);
        found.add(test);
      }
    }
  }
  if (!existsSync(file)) {
    // Deleted: the files that named it are where a stale import would show.
    const stem = path.basename(file).replace(MODULE, '');
    const namers = git('grep', '-l', '-F', stem, '--', '*.ts', '*.tsx', '*.mjs').filter(
      (f) => f !== file,
    );
    reasons.push(`deleted; named in ${namers.length} file(s)`);
    for (const namer of namers) {
      for (const [spec] of testsOf(path.resolve(root, namer))) {
        add(relative(spec.moduleId), `imports ${namer}, which named deleted ${file}`);
        found.add(relative(spec.moduleId));
      }
    }
  } else if (MODULE.test(file)) {
    for (const [spec, reason] of testsOf(path.resolve(root, file))) {
      add(relative(spec.moduleId), reason);
      found.add(relative(spec.moduleId));
    }
  } else {
    // Not a module: the tests whose text names it (a fixture, a script, a committed document).
    // By its path from the root, or by its name from a test in a folder above it.
    for (const test of testTexts.keys()) {
      const near = file.startsWith(`${path.dirname(test)}/`);
      const name = (near ? path.basename(file) : file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (new RegExp(`(?<![\\w./-])${name}(?![\\w.-])`).test(textOf(test))) {
        add(test, `names ${file}`);
        found.add(test);
      }
    }
  }
  leadsTo.push(`${file}: ${[...reasons, `${found.size} test file(s)`].join('; ')}`);
}

console.log(
  `test:quick: changes since ${base.slice(0, 10)} (merge base with ${baseRef ?? 'main'}):`,
);
if (!changed.length) console.log('  (none)');
for (const line of leadsTo) console.log(`  ${line}`);

let specs;
if (everything) {
  specs = all;
  console.log(`\nEvery unit and API test (${all.length} files): ${everything} changed.`);
} else {
  specs = all.filter((s) => why.has(relative(s.moduleId)));
  console.log(`\n${specs.length} of ${all.length} unit and API test files:`);
  for (const spec of specs) {
    const file = relative(spec.moduleId);
    const reasons = why.get(file) ?? [];
    const shown = reasons.slice(0, 3).join('; ');
    const more = reasons.length > 3 ? ` (and ${reasons.length - 3} more)` : '';
    console.log(`  ${spec.project.name.padEnd(4)} ${file}: ${shown}${more}`);
  }
}
if (!specs.length || listOnly) {
  await vitest.close();
  if (!specs.length) console.log('Nothing to run.');
  process.exit(0);
}
await vitest.standalone(); // the reporters (Vitest's start() would also glob and run)
const started = performance.now();
const result = await vitest.runTestSpecifications(specs, everything !== null);
const ok = result.unhandledErrors.length === 0 && result.testModules.every((m) => m.ok());
await vitest.close();
console.log(
  `test:quick: ${specs.length} file(s) ${ok ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(ok ? 0 : 1);
