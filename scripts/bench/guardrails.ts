/**
 * One worker pass over running metered instances with every guardrail on (issue 23): `node
 * --import tsx scripts/bench/guardrails.ts [instances]` (PostgreSQL only; not part of `npm
 * test`; default 10,000). A fresh database on BENCH_DATABASE_URL (else TEST_DATABASE_URL, else
 * the local server) gets 100 renters with the instances spread over them, every instance due
 * its minute and with idle stop on; a tenth idle long enough to be warned, a tenth warned and
 * idle long enough to be stopped, a twentieth past a "stop at" and a twentieth past a
 * "terminate at"; every renter has daily and monthly spend caps, a fifth of them a daily cap
 * this minute's charges cross. Then one full pass of the worker (`runOnce`: every job,
 * metered-minute included, each until it has nothing left) is timed, and the instances it
 * stopped are counted by reason. The ledger's invariants are checked; the database is dropped.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../../server/db/client';
import { ManualClock } from '../../server/lib/clock';
import { checkInvariants } from '../../server/modules/ledger/invariants';
import { createHost, createListing, createProvider } from '../../server/seed/factories';
import {
  adminStatement,
  benchServerUrl,
  databaseUrl,
  fundBenchUsers,
  workerBenchApp,
} from './helpers';

const USERS = 100;
const base = benchServerUrl;
const count = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const admin = (statement: string) => adminStatement(base, statement);

const name = `rentgpu_bench_guard_${randomBytes(4).toString('hex')}`;
await admin(`create database ${name}`);
const url = databaseUrl(base, name);
const database = await openDatabase({ kind: 'postgres', url });
try {
  await database.migrate();
  const db = database.db;
  const clock = new ManualClock(new Date());
  const now = clock.now();
  const at = now.toISOString();
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
  const provider = await createProvider(db);
  const host = await createHost(db, {
    providerId: provider.id,
    lastHeartbeatAt: now,
    gpus: { name: 'NVIDIA GeForce RTX 4090', count: 8 },
  });
  const listing = await createListing(db, {
    providerId: provider.id,
    hostId: host.id,
    totalCount: 8,
    hourlyRate: '1.50',
  });
  await db.execute(sql`
    insert into users (email, first_name, last_name, settings)
    select 'guard-' || g || '@bench.test', 'Bench', 'User',
      case when g % 5 = 0
        then '{"billing":{"dailySpendCap":"1.00","monthlySpendCap":"1000"}}'::jsonb
        else '{"billing":{"dailySpendCap":"100000","monthlySpendCap":"1000000"}}'::jsonb end
    from generate_series(1, ${USERS}::int) g`);
  await fundBenchUsers(db, 'guard', USERS);
  // n % 20: 0-1 warn due (idle 51 min), 2-3 stop due (idle 61, warned 11 min ago),
  // 4 past its stop time, 5 past its terminate time; the rest active a minute ago.
  await db.execute(sql`
    with u as (select id, row_number() over (order by id) - 1 as n
      from users where email like 'guard-%@bench.test')
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, state_changed_at, hourly_rate_micros, storage_gb, start_time, provisioning_deadline,
      ready_at, paid_through, gpu_indexes, idle_stop_minutes, last_active_at, idle_warned_at,
      stop_at, terminate_at)
    select u.id, ${listing.id}, ${provider.id}, ${host.id}, 'vm', 'metered', 'running',
      ${minutesAgo(120)}::timestamptz, 1500000, 50, ${minutesAgo(120)}::timestamptz,
      ${minutesAgo(120)}::timestamptz, ${minutesAgo(120)}::timestamptz, ${at}::timestamptz,
      jsonb_build_array(g % 8), 60,
      case when g % 20 in (0, 1) then ${minutesAgo(51)}::timestamptz
        when g % 20 in (2, 3) then ${minutesAgo(61)}::timestamptz
        else ${minutesAgo(1)}::timestamptz end,
      case when g % 20 in (2, 3) then ${minutesAgo(11)}::timestamptz end,
      case when g % 20 = 4 then ${minutesAgo(0.5)}::timestamptz end,
      case when g % 20 = 5 then ${minutesAgo(0.5)}::timestamptz end
    from generate_series(0, ${count - 1}::int) g join u on u.n = g % ${USERS}::int`);
  await db.execute(sql`vacuum analyze`);

  const app = await workerBenchApp(database, clock);
  try {
    // Each job's own time within the pass.
    const spent = new Map<string, number>();
    for (const job of app.deps.worker.jobs) {
      const run = job.run;
      job.run = async (at, batch) => {
        const from = performance.now();
        try {
          return await run(at, batch);
        } finally {
          spent.set(job.name, (spent.get(job.name) ?? 0) + performance.now() - from);
        }
      };
    }
    const started = performance.now();
    const done = await app.deps.worker.runOnce(now);
    const ms = performance.now() - started;
    const acted = Object.entries(done)
      .filter(([, n]) => n > 0)
      .map(([job, n]) => `${job} ${fmt(n)} in ${fmt(spent.get(job) ?? 0)} ms`)
      .join(', ');
    console.log(
      `one worker pass over ${fmt(count)} running metered instances (idle stop, deadlines, spend caps, metered minute): ${fmt(ms)} ms`,
    );
    console.log(`  jobs that acted: ${acted}`);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const reasons = await client.query<{ reason: string; n: number }>(`
      select coalesce(end_reason, '(running)') as reason, count(*)::int as n from instances
      where billing_plan = 'metered' group by 1 order by 2 desc`);
    const warned = await client.query<{ n: number }>(
      `select count(*)::int as n from instances where idle_warned_at is not null and status = 'running'`,
    );
    await client.end();
    console.log(
      `  instances by end reason: ${reasons.rows.map((r) => `${r.reason} ${fmt(r.n)}`).join(', ')}; warned idle and still running: ${fmt(warned.rows[0]?.n ?? 0)}`,
    );
    // The bench puts every instance on one 8-GPU listing (units are not what is measured): the
    // listing-unit invariant is left out, every ledger and instance one is checked.
    const again = performance.now();
    await app.deps.worker.runOnce(now);
    console.log(
      `  a second pass in the same minute (nothing left due, every check made): ${fmt(performance.now() - again)} ms`,
    );
    const problems = (await checkInvariants(db, { billedUpTo: now })).filter(
      (p) => !p.startsWith(`listing ${listing.id}: available`),
    );
    console.log(
      `  invariants: ${problems.length === 0 ? 'all hold' : problems.slice(0, 5).join('; ')}`,
    );
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await app.close();
  }
} finally {
  await database.close();
  await admin(`drop database if exists ${name} with (force)`);
}
