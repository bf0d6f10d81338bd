// `npm test`: the whole suite, in phases (two lanes side by side where one mostly waits).
//   prerequisites  the Debian packages (scripts/test-prereqs.sh: Chromium, QEMU, ...), the busybox
//                  test guest and the Debian cloud image (each built once, then cached)
//   build          the web app, server and agent bundles once (unless dist/ is fresh): the
//                  system test serves this very web build and the browser tests the whole of it
//   unit and API   vitest, two workers           ┐ beside them, a second lane:
//   money on PostgreSQL  with MONEY_DATABASE_URL │   processes   real server processes, no VM
//                  or a local PostgreSQL: the    │   VMs         the busybox-guest VM tests
//                  money tests there (else in    │               (agent-e2e, system), one worker
//                  unit and API)                 │   real guest  the Debian guest with real
//   containers     the container driver on real  ┘               cloud-init (two VMs of its own)
//                  Podman, one worker
//   browser        Playwright
// Every phase runs even when one before it failed; the end prints each phase's time, every
// failed and skipped test, and the five slowest files.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildIfStale } from './build-if-stale.mjs';
import { MONEY_EXCLUDES, MONEY_TESTS } from './money-tests.mjs';
import { redisAnswers } from './test-services.mjs';

const REPORTS = 'test-results/reports';
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
const vitest = 'node_modules/vitest/vitest.mjs';
const vitestPhase = (name, file, args) => ({
  name,
  report: { kind: 'vitest', file: path.join(REPORTS, file) },
  command: [
    process.execPath,
    [
      vitest,
      'run',
      ...args,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(REPORTS, file)}`,
    ],
  ],
});

const env = { ...process.env };
if (await redisAnswers()) env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
else
  console.log('No Redis on 127.0.0.1:6379: the tests of limits shared through Redis are skipped.');

/** Whether a PostgreSQL answers at `url` and lets its user make databases (each test file makes its own). */
async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      'select rolcreatedb or rolsuper as can from pg_roles where rolname = current_user',
    );
    return rows[0]?.can === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * With MONEY_DATABASE_URL (CI: its PostgreSQL), the tests of what moves money or races
 * (scripts/money-tests.mjs) run there, in a phase of their own, instead of on the embedded
 * database: the real server's locks and concurrency are the stronger test, and each file runs
 * once. Unset, a PostgreSQL on its usual port that lets its user make databases (trust auth as
 * `postgres`, as on the project's machines) takes that part, as a local Redis does; with none,
 * or with MONEY_DATABASE_URL set empty, they run with the other API tests on the embedded one.
 */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
let MONEY_DATABASE_URL = process.env.MONEY_DATABASE_URL;
if (MONEY_DATABASE_URL === undefined && (await postgresAnswers(LOCAL_POSTGRES))) {
  MONEY_DATABASE_URL = LOCAL_POSTGRES;
  console.log(
    `The money tests run on the PostgreSQL at ${LOCAL_POSTGRES} (MONEY_DATABASE_URL= runs them on the embedded database).`,
  );
} else if (!MONEY_DATABASE_URL) {
  console.log(
    'The money tests run on the embedded database (no PostgreSQL at 127.0.0.1:5432 that lets postgres make databases, or MONEY_DATABASE_URL set empty); the tests that need PostgreSQL are skipped.',
  );
}

const unitApi = vitestPhase('unit and API', 'unit-api.json', [
  '--project',
  'unit',
  '--project',
  'api',
  ...(MONEY_DATABASE_URL ? MONEY_EXCLUDES.flatMap((glob) => ['--exclude', glob]) : []),
]);
const money = MONEY_DATABASE_URL
  ? [
      {
        ...vitestPhase('money on PostgreSQL', 'money.json', ['--project', 'api', ...MONEY_TESTS]),
        env: { TEST_DATABASE_URL: MONEY_DATABASE_URL },
      },
    ]
  : [];
/**
 * The end-to-end tests that boot no VM, each a Vitest project of its own, one worker each.
 * `containers` (the container driver on real Podman, about 60 s) runs in the first lane after the
 * money tests: that lane otherwise stood idle for about 4¾ minutes while the VM lane set the
 * pace. `processes` (two real server processes on one PostgreSQL, and one killed while it
 * delivers webhooks, about 75 s) stays at the head of the VM lane: with both moved to the first
 * lane (2026-11-30), the VM lane ended first and the real guest's two VMs ran beside the money
 * and process tests, and in two CI runs a timing-bound test of those failed (a console over a
 * real SSH server past 30 s; a killed process's webhooks not flowing within 30 s).
 */
const containers = vitestPhase('containers', 'containers.json', [
  '--project',
  'containers',
  '--maxWorkers=1',
]);
const processes = vitestPhase('processes', 'processes.json', [
  '--project',
  'processes',
  '--maxWorkers=1',
]);
const vms = vitestPhase('VMs', 'vms.json', [
  '--project',
  'agent-e2e',
  '--project',
  'system',
  '--maxWorkers=1',
]);
const realGuest = vitestPhase('real guest', 'real-guest.json', ['--project', 'real-guest']);

/**
 * What runs, in order. The emulated guests keep about one core busy and wait on it the rest of
 * the time, so the two VM phases (one after the other: at most two guests boot at once) run
 * beside the unit, API and money tests as a second lane rather than after them.
 */
const stages = [
  {
    name: 'prerequisites',
    fatal: true,
    steps: [
      ['bash', ['scripts/test-prereqs.sh']],
      ['bash', ['scripts/test-guest/build.sh']],
      ['bash', ['scripts/test-image/build.sh']],
    ],
  },
  { name: 'build', fatal: true, run: () => buildIfStale() },
  {
    lanes: [
      [unitApi, ...money, containers],
      [processes, vms, realGuest],
    ],
  },
  {
    name: 'browser',
    report: { kind: 'playwright', file: path.join(REPORTS, 'playwright.json') },
    command: [
      process.execPath,
      ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'],
    ],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(REPORTS, 'playwright.json') },
  },
];
const allPhases = stages.flatMap((stage) => (stage.lanes ? stage.lanes.flat() : [stage]));

/** The machine's busy and total CPU time so far, in seconds (Linux: /proc/stat's cpu line). */
function machineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
    const ticks = fields.map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** Runs a command; its output goes through, each line led by `prefix` when there is one. */
function run(command, args, phaseEnv, prefix) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...env, ...phaseEnv },
    });
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        stream.on('data', (chunk) => {
          const lines = (rest + chunk.toString()).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) out.write(`${prefix} ${line}\n`);
        });
        stream.on('end', () => {
          if (rest) out.write(`${prefix} ${rest}\n`);
        });
      }
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function runPhase(phase, prefix) {
  console.log(`\n── ${phase.name} ──`);
  const t0 = performance.now();
  const cpu0 = machineCpu();
  let ok = true;
  try {
    if (phase.run) phase.run();
    for (const [command, args] of phase.steps ?? (phase.command ? [phase.command] : [])) {
      if ((await run(command, args, phase.env, prefix)) !== 0) {
        ok = false;
        break;
      }
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    ok = false;
  }
  const cpu1 = machineCpu();
  console.log(`── ${phase.name} ${ok ? 'passed' : 'FAILED'} ──`);
  return {
    phase,
    ok,
    seconds: (performance.now() - t0) / 1000,
    // Busy cores of the whole machine while it ran (with a lane beside it, both lanes').
    busyCores: ((cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * os.availableParallelism(),
  };
}

const results = [];
const started = performance.now();
for (const stage of stages) {
  if (stage.lanes) {
    // Lanes side by side, each lane's phases one after the other, their lines led by the phase.
    const laneResults = await Promise.all(
      stage.lanes.map(async (lane) => {
        const done = [];
        for (const phase of lane) done.push(await runPhase(phase, `[${phase.name}]`));
        return done;
      }),
    );
    results.push(...laneResults.flat());
    continue;
  }
  const result = await runPhase(stage);
  results.push(result);
  if (!result.ok && stage.fatal) break;
}

/**
 * Why a test failed, in a few lines without colours: the summary is the end of the output, the
 * part a CI log keeps when it keeps only its tail.
 */
function whyOf(message) {
  if (!message) return [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes
  const plain = String(message).replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .map((line) => line.trimEnd())
      // Vitest's JSON report gives a timed-out test's stack, whose first line is its placeholder.
      .map((line) =>
        line === 'Error: STACK_TRACE_ERROR' ? 'Error: the test ran past its own time limit' : line,
      )
      .filter((line) => line.trim() && !/^\s+at /.test(line))
      .slice(0, 6)
      .map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line))
  );
}

/**
 * Each file's tests as { file, ms, failed: [{ name, why: [lines] }], skipped: [names] }, from a
 * phase's report.
 */
function filesOf(report) {
  if (!report || !existsSync(report.file)) return [];
  try {
    return readReport(report);
  } catch (error) {
    console.log(
      `(could not read ${report.file}: ${error instanceof Error ? error.message : error})`,
    );
    return [];
  }
}

function readReport(report) {
  const json = JSON.parse(readFileSync(report.file, 'utf8'));
  if (report.kind === 'vitest') {
    return json.testResults.map((file) => ({
      file: path.relative(process.cwd(), file.name),
      ms: file.endTime - file.startTime,
      failed: [
        ...file.assertionResults
          .filter((t) => t.status === 'failed')
          .map((t) => ({ name: t.fullName, why: whyOf(t.failureMessages?.[0]) })),
        ...(file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')
          ? [{ name: '(the file itself)', why: whyOf(file.message) }]
          : []),
      ],
      skipped: file.assertionResults
        .filter((t) => t.status === 'skipped' || t.status === 'pending')
        .map((t) => t.fullName),
    }));
  }
  const files = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      const entry = files.get(spec.file) ?? {
        file: `e2e/${spec.file}`,
        ms: 0,
        failed: [],
        skipped: [],
      };
      files.set(spec.file, entry);
      for (const test of spec.tests) {
        const name = [...titles, spec.title].join(' › ');
        for (const result of test.results) entry.ms += result.duration;
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results.find((r) => r.error)?.error;
          entry.failed.push({ name, why: whyOf(error?.message ?? error?.value) });
        }
        if (test.status === 'skipped') entry.skipped.push(name);
      }
    }
    for (const child of suite.suites ?? [])
      walk(child, suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles);
  };
  for (const suite of json.suites ?? []) walk(suite, []);
  return [...files.values()];
}

const minutes = (s) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
console.log('\n── summary ──');
const allFiles = [];
// Busy: the whole machine's CPU while the phase ran, in cores of os.availableParallelism();
// below it, the machine waited rather than computed.
for (const { phase, ok, seconds, busyCores } of results) {
  const files = filesOf(phase.report);
  allFiles.push(...files);
  const busy = Number.isFinite(busyCores)
    ? `  ${busyCores.toFixed(2)} of ${os.availableParallelism()} cores busy`
    : '';
  console.log(`${ok ? 'passed' : 'FAILED'}  ${phase.name.padEnd(20)} ${minutes(seconds)}${busy}`);
  for (const file of files) {
    for (const { name, why } of file.failed) {
      console.log(`        failed: ${file.file} › ${name}`);
      for (const line of why) console.log(`          | ${line}`);
    }
  }
}
for (const phase of allPhases.slice(results.length)) console.log(`not run ${phase.name}`);
const skipped = allFiles.flatMap((f) => f.skipped.map((name) => `${f.file} › ${name}`));
if (skipped.length) {
  console.log(`skipped (${skipped.length}; the name says what each needs):`);
  for (const line of skipped) console.log(`  ${line}`);
}
console.log('five slowest files:');
for (const file of allFiles.sort((a, b) => b.ms - a.ms).slice(0, 5)) {
  console.log(`  ${(file.ms / 1000).toFixed(1).padStart(6)} s  ${file.file}`);
}
console.log(`npm test: ${minutes((performance.now() - started) / 1000)}`);
process.exit(results.every((r) => r.ok) && results.length === allPhases.length ? 0 : 1);
