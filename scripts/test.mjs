// `npm test`: the whole suite, in phases that do not compete for this machine's cores.
//   prerequisites  the Debian packages (scripts/test-prereqs.sh: Chromium, QEMU, ...), the busybox
//                  test guest and the Debian cloud image (each built once, then cached)
//   build          the web app, server and agent bundles once (unless dist/ is fresh): the
//                  system test serves this very web build and the browser tests the whole of it
//   unit and API   vitest, two workers
//   money on PostgreSQL  with MONEY_DATABASE_URL only: the money tests there (else in the above)
//   VMs            the busybox-guest VM tests (agent-e2e, system), one worker: at most two VMs boot;
//                  the system project's two-server-process test (PostgreSQL) runs here too
//   real guest     the Debian guest with real cloud-init (two VMs of its own)
//   browser        Playwright
// Every phase runs even when one before it failed; the end prints each phase's time, every
// failed and skipped test, and the five slowest files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { MONEY_EXCLUDES, MONEY_TESTS } from './money-tests.mjs';

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

/** A local Redis on its usual port takes part (the shared rate limits' tests), as in CI. */
async function redisAnswers() {
  if (process.env.TEST_REDIS_URL) return true;
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const event of ['error', 'timeout']) {
      socket.once(event, () => {
        socket.destroy();
        resolve(false);
      });
    }
  });
}
const env = { ...process.env };
if (await redisAnswers()) env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
else
  console.log('No Redis on 127.0.0.1:6379: the tests of limits shared through Redis are skipped.');

/**
 * With MONEY_DATABASE_URL (CI: its PostgreSQL), the tests of what moves money or races
 * (scripts/money-tests.mjs) run there, in a phase of their own, instead of on the embedded
 * database: the real server's locks and concurrency are the stronger test, and each file runs
 * once. Without it they run with the other API tests.
 */
const MONEY_DATABASE_URL = process.env.MONEY_DATABASE_URL;

const phases = [
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
  vitestPhase('unit and API', 'unit-api.json', [
    '--project',
    'unit',
    '--project',
    'api',
    ...(MONEY_DATABASE_URL ? MONEY_EXCLUDES.flatMap((glob) => ['--exclude', glob]) : []),
  ]),
  ...(MONEY_DATABASE_URL
    ? [
        {
          ...vitestPhase('money on PostgreSQL', 'money.json', ['--project', 'api', ...MONEY_TESTS]),
          env: { TEST_DATABASE_URL: MONEY_DATABASE_URL },
        },
      ]
    : []),
  vitestPhase('VMs', 'vms.json', [
    '--project',
    'agent-e2e',
    '--project',
    'system',
    '--maxWorkers=1',
  ]),
  vitestPhase('real guest', 'real-guest.json', ['--project', 'real-guest']),
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

/** CPU seconds of every finished child process so far (Linux: /proc/self/stat cutime + cstime). */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5), counted from after the command name (field 3 is index 0).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

const results = [];
const started = performance.now();
for (const phase of phases) {
  console.log(`\n── ${phase.name} ──`);
  const t0 = performance.now();
  const cpu0 = childCpuSeconds();
  let ok = true;
  try {
    if (phase.run) phase.run();
    for (const [command, args] of phase.steps ?? (phase.command ? [phase.command] : [])) {
      const result = spawnSync(command, args, {
        stdio: 'inherit',
        env: { ...env, ...phase.env },
      });
      if (result.status !== 0) {
        ok = false;
        break;
      }
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    ok = false;
  }
  results.push({
    phase,
    ok,
    seconds: (performance.now() - t0) / 1000,
    cpu: childCpuSeconds() - cpu0,
  });
  if (!ok && phase.fatal) break;
}

/** Each file's tests as { file, ms, failed: [names], skipped: [names] }, from a phase's report. */
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
        ...file.assertionResults.filter((t) => t.status === 'failed').map((t) => t.fullName),
        ...(file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')
          ? [`(the file itself: ${(file.message ?? '').split('\n')[0]})`]
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
        if (test.status === 'unexpected' || test.status === 'flaky') entry.failed.push(name);
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
// CPU: what the phase's processes used; busy: that over the wall time, in cores (this
// machine's share: os.availableParallelism()) — below it, the phase waits rather than computes.
for (const { phase, ok, seconds, cpu } of results) {
  const files = filesOf(phase.report);
  allFiles.push(...files);
  const busy = Number.isFinite(cpu)
    ? `  CPU ${Math.round(cpu)} s, ${(cpu / seconds).toFixed(2)} of ${os.availableParallelism()} cores busy`
    : '';
  console.log(`${ok ? 'passed' : 'FAILED'}  ${phase.name.padEnd(14)} ${minutes(seconds)}${busy}`);
  for (const file of files) {
    for (const name of file.failed) console.log(`        failed: ${file.file} › ${name}`);
  }
}
for (const phase of phases.slice(results.length)) console.log(`not run ${phase.name}`);
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
process.exit(results.every((r) => r.ok) && results.length === phases.length ? 0 : 1);
