import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../app';
import { parseEnv } from '../env';
import { ManualClock } from '../lib/clock';
import { MemoryRateLimiter } from '../lib/rate-limit';
import { describeOnPostgres, openTestDatabase } from '../test/database';
import { fillHistory } from '../test/history';
import { explainAll, StatementLog, seqScannedTables } from '../test/idle-plans';

/** Instances that ended long ago: what no job's claim may read on every pass. */
const HISTORY = 20_000;
/** A table this big read whole by a job would be read every second, in every process. */
const BIG = 1_000;

const describeHere = describeOnPostgres(
  'server/worker/idle-plans.test.ts',
  'it checks PostgreSQL query plans',
);

/**
 * The worker's idle cost is flat (issue 22): each job's statements, as the job sends them on a
 * database with a long past and nothing due, are planned on indexes of what may be due, never
 * as a Seq Scan of a big table. The statements are the ones the jobs really send (recorded
 * through openDatabase's logger), so a new job or a changed query is checked as it is.
 */
describeHere('the idle worker reads no history (PostgreSQL plans)', () => {
  const log = new StatementLog();
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let app: FastifyInstance;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    database = await openTestDatabase({ logger: log });
    await fillHistory(database.db, HISTORY, clock.now());
    app = await createApp({
      env: parseEnv({ NODE_ENV: 'test', READ_CACHE_TTL_MS: '0' }),
      database,
      clock,
      limiter: new MemoryRateLimiter(clock),
      logger: false,
      webDir: null,
    });
    // The history's events are as old as it is: the retention (30 days) has deleted them in a
    // database that ran all along, so the idle pass below starts from there.
    while ((await app.deps.events.prune(clock.now(), 5_000)) > 0) {}
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('no job claims anything, and no job statement scans a big table whole', async () => {
    const url = database.url;
    if (!url) throw new Error('no PostgreSQL URL');
    const found: Record<string, string[]> = {};
    const sent: Record<string, number> = {};
    for (const job of app.deps.worker.jobs) {
      let done = -1;
      const statements = await log.during(async () => {
        done = await job.run(clock.now(), job.batch);
      });
      expect(done, job.name).toBe(0);
      sent[job.name] = statements.length;
      for (const plan of await explainAll(url, statements)) {
        const big = seqScannedTables(plan.scans).filter((t) => (plan.rows.get(t) ?? 0) >= BIG);
        if (big.length > 0)
          found[job.name] = [
            ...(found[job.name] ?? []),
            `Seq Scan on ${big.join(', ')}: ${plan.sql}`,
          ];
      }
    }
    expect(found).toEqual({});
    // Every job sent its claim query (nothing was skipped by a schedule).
    for (const [job, n] of Object.entries(sent)) expect(n, job).toBeGreaterThan(0);
    // The history is really there, as the planner sees it.
    const [plan] = await explainAll(url, [{ sql: 'select 1', params: [] }]);
    expect(plan?.rows.get('instances') ?? 0).toBeGreaterThanOrEqual(HISTORY);
    for (const table of [
      'users',
      'sessions',
      'ledger_accounts',
      'hosts',
      'host_outages',
      'idempotency_keys',
    ])
      expect(plan?.rows.get(table) ?? 0, table).toBeGreaterThanOrEqual(BIG);
  });
});
