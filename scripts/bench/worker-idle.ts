/**
 * The idle worker's cost per pass against the instances' history (issue 22, part 6):
 * `node --import tsx scripts/bench/worker-idle.ts [rows…] [--explain]` (PostgreSQL only; not
 * part of `npm test`). For each row count (default 10,000 and 100,000) it makes a fresh
 * database on BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local server), migrates it,
 * writes that many long-ended instances (server/test/history.ts), ANALYZEs, and times full
 * worker passes with nothing due (every job, schedules ignored, as `worker.runOnce` runs
 * them): the median, p90 and minimum of 200 passes after 20 warm-up passes, and each job's
 * median. On a busy machine the minimum is the steadiest figure.
 * `--explain` prints each statement of an idle pass with the scans of its plan. The database
 * is dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../server/db/client';
import { ManualClock } from '../../server/lib/clock';
import { fillHistory } from '../../server/test/history';
import { explainAll, StatementLog } from '../../server/test/idle-plans';
import { adminStatement, benchServerUrl, databaseUrl, workerBenchApp } from './helpers';

const WARMUP = 20;
const PASSES = 200;
const base = benchServerUrl;
const args = process.argv.slice(2);
const explain = args.includes('--explain');
const counts = args.filter((a) => /^\d+$/.test(a)).map(Number);

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

const admin = (statement: string) => adminStatement(base, statement);

async function measure(rows: number) {
  const name = `rentgpu_bench_idle_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = databaseUrl(base, name);
  const log = new StatementLog();
  const database = await openDatabase({
    kind: 'postgres',
    url,
    logger: log,
  });
  try {
    await database.migrate();
    const clock = new ManualClock(new Date());
    const filled = process.hrtime.bigint();
    await fillHistory(database.db, rows, clock.now());
    const fillMs = ms(filled);
    const app = await workerBenchApp(database, clock);
    const { worker } = app.deps;
    for (let i = 0; i < WARMUP; i++) await worker.runOnce(clock.now());
    const passes: number[] = [];
    const perJob = new Map<string, number[]>(worker.jobs.map((j) => [j.name, []]));
    for (let i = 0; i < PASSES; i++) {
      const start = process.hrtime.bigint();
      const done = await worker.runOnce(clock.now());
      passes.push(ms(start));
      if (Object.values(done).some((n) => n > 0)) throw new Error(`work was due: ${done}`);
    }
    for (let i = 0; i < PASSES / 4; i++) {
      for (const job of worker.jobs) {
        const start = process.hrtime.bigint();
        await job.run(clock.now(), job.batch);
        perJob.get(job.name)?.push(ms(start));
      }
    }
    const statements = await log.during(() => worker.runOnce(clock.now()));
    console.log(
      `${rows.toLocaleString('en-US')} ended instances (written in ${(fillMs / 1000).toFixed(1)} s): ` +
        `one idle pass ${percentile(passes, 0.5).toFixed(2)} ms median, ` +
        `${percentile(passes, 0.9).toFixed(2)} ms p90, ${Math.min(...passes).toFixed(2)} ms min ` +
        `(${PASSES} passes, ${statements.length} statements)`,
    );
    console.log(
      `  per job (median ms): ${[...perJob]
        .map(([job, xs]) => `${job} ${percentile(xs, 0.5).toFixed(2)}`)
        .join(', ')}`,
    );
    if (explain) {
      for (const plan of await explainAll(url.toString(), statements)) {
        console.log(
          `  ${plan.sql.replace(/\s+/g, ' ').replace(/select "id", "user_id".*? from/, 'select * from')}`,
        );
        console.log(`    plan: ${plan.scans.join(', ') || '(no table)'}`);
      }
    }
    await app.close();
  } finally {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
}

for (const rows of counts.length > 0 ? counts : [10_000, 100_000]) await measure(rows);
