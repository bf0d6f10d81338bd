/**
 * Webhook deliveries (issue 40), PostgreSQL only, each part on a fresh database of its own
 * (dropped afterwards), the app built by createApp as the tests build it with its event log's
 * dispatcher started (createApp starts it) and the delivery loop started as main.ts starts it
 * (`delivery.start`, never `runOnce`). The receiver is node:http on 127.0.0.1 in a worker
 * thread (scripts/bench/webhook-receiver.mjs, ALLOW_PRIVATE_HOST_ADDRESSES=1), verifying every
 * delivery with the `standardwebhooks` package. Events come from renters' rent-then-stop pairs
 * through the HTTP API (scripts/bench/rent-load.mjs), each renter an account with one endpoint
 * subscribed to every type.
 *
 * - `BENCH_ONLY=webhooks`: while the pairs run, deliveries per second and the latency from the
 *   change to the receiver: from the event's time (its `at`, which the body's `timestamp`
 *   carries) and, for the instance's own events, from when the request that made the change
 *   was answered (the rent, the host's ready report, the stop). Then the loop's ceiling: the
 *   same pairs with the loop stopped, their deliveries left pending, then the loop started and
 *   timed until none is pending.
 * - `BENCH_ONLY=webhooks-dead`: 10,000 deliveries due to another account's dead endpoint — a
 *   closed port on 127.0.0.1 (refused at once), then a receiver that never answers (the 10 s
 *   timeout) — against none: a healthy account's change-to-delivery latency, the worker's
 *   pass (`worker.runOnce`, its metered-minute job over BENCH_METERED running metered
 *   instances) while the loop runs, and the claim's statements under EXPLAIN ANALYZE.
 *
 * Figures only, no assertions. Run through `npm run bench` (scripts/bench/run.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../../server/app';
import { type Database, openDatabase } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { randomToken } from '../../server/lib/crypto';
import { hashSessionToken } from '../../server/modules/auth/service';
import { webhooksRepo } from '../../server/modules/webhooks/repo';
import { createUser } from '../../server/seed/factories';
import { type Statement, StatementLog } from '../../server/test/idle-plans';
import { backendsCpuMs, cpuSnapshot } from './cpu';
import { databaseUrl, listenLocal, seedMeteredInstances, silentMailer } from './helpers';

type Fmt = (n: number, digits?: number) => string;
type ListingPage = { id: number; providerId: number; hourlyRate: string }[];

export interface WebhookBenchOptions {
  /** The PostgreSQL server's address (DATABASE_URL): fresh databases are made beside it. */
  adminUrl: string;
  poolSize: number;
  /** Seconds of pairs per measured window. */
  seconds: number;
  /** Listings to rent (scripts/bench/run.ts seed), vacuumed and analysed. */
  seed: (database: Database) => Promise<void>;
  fmt: Fmt;
}

const RENTERS = 32;
const DEAD_BACKLOG = Number(process.env.BENCH_DEAD_BACKLOG ?? 10_000);
const METERED = Number(process.env.BENCH_METERED ?? 1_000);
const WORKER_PASSES = 5;
/** The paced live phase: each renter's wait after each pair. */
const LIVE_PAUSE_MS = 500;
/** The healthy account's two renters (part webhooks-dead) wait this long after each pair. */
const HEALTHY_PAUSE_MS = 200;

const rowsOf = <T>(result: unknown): T[] =>
  ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
};

/** A fresh database beside `adminUrl`, migrated and seeded; dropped when `run` ends. */
async function withDatabase<T>(
  o: WebhookBenchOptions,
  tag: string,
  run: (database: Database, url: string, log: StatementLog) => Promise<T>,
): Promise<T> {
  const name = `rentgpu_bench_${tag}_${process.pid}`;
  const admin = new pg.Client({ connectionString: o.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = databaseUrl(o.adminUrl, name);
  const log = new StatementLog();
  const database = await openDatabase({
    kind: 'postgres',
    url: target,
    poolSize: o.poolSize,
    logger: log,
  });
  try {
    await database.migrate();
    await o.seed(database);
    return await run(database, target, log);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function startApp(database: Database) {
  const env = parseEnv({
    // Not production: there only https endpoints are sent to, and the receiver is plain http.
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    ALLOW_PRIVATE_HOST_ADDRESSES: '1',
  });
  const app = await createApp({ env, database, logger: false, webDir: null, mailer: silentMailer });
  const base = await listenLocal(app);
  const page = (await (
    await fetch(`${base}/api/gpu-listings?limit=100&sort=price-asc`)
  ).json()) as ListingPage;
  return { app, base, page };
}
type BenchApp = Awaited<ReturnType<typeof startApp>>;

/** One arrival at the receiver (webhook-receiver.mjs). */
type Arrival = [number, number, string, number | null, string, boolean];

async function startReceiver() {
  const worker = new Worker(new URL('./webhook-receiver.mjs', import.meta.url));
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        worker.off('message', onMessage);
        resolve(message[key] as T);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  const port = await next<number>('port');
  return {
    url: `http://127.0.0.1:${port}`,
    async addSecrets(secrets: Record<string, string>) {
      const added = next<number>('added');
      worker.postMessage({ secrets });
      await added;
    },
    /** What arrived since the last take. */
    async take(): Promise<Arrival[]> {
      const took = next<Arrival[]>('took');
      worker.postMessage('take');
      return took;
    },
    close: () => worker.terminate(),
  };
}

/**
 * `n` accounts with credits, each signed in (a session written as the tests write one) and,
 * with `endpointUrl`, an endpoint subscribed to every type at `<endpointUrl>/h/<user id>`.
 */
async function accounts(
  t: BenchApp,
  database: Database,
  n: number,
  endpointUrl: string | null,
): Promise<{ userId: string; cookie: string; endpointId: string | null; secret: string }[]> {
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const user = await database.db.transaction((tx) => createUser(tx, { credits: '1000000.00' }));
    const token = randomToken();
    await database.db.execute(
      sql`insert into sessions (token_hash, user_id, expires_at) values (${hashSessionToken(token)}, ${user.id}, now() + interval '1 day')`,
    );
    let endpointId: string | null = null;
    let secret = '';
    if (endpointUrl) {
      const created = await t.app.deps.webhooks.service.create(user.id, {
        url: `${endpointUrl}/h/${user.id}`,
        types: ['*'],
        description: 'bench',
      });
      endpointId = created.id;
      secret = created.secret;
    }
    out.push({ userId: user.id, cookie: `rentgpu_session=${token}`, endpointId, secret });
  }
  return out;
}

interface Pairs {
  pairs: number;
  failures: number;
  firstFailure: string | null;
  /** Per pair: instance id, rent answered at, stop answered at (Date.now()). */
  answered: [number, number, number][];
  /** Instance id → when the host's ready report was answered. */
  readyAt: Map<number, number>;
}

/** Rent-then-stop pairs from a worker thread (scripts/bench/rent-load.mjs), answer times kept. */
async function pairs(t: BenchApp, cookies: string[], seconds: number, pauseMs = 0): Promise<Pairs> {
  const readyAt = new Map<number, number>();
  const worker = new Worker(new URL('./rent-load.mjs', import.meta.url), {
    workerData: { bases: [t.base], cookies, listings: t.page, seconds, record: true, pauseMs },
  });
  try {
    const done = await new Promise<Omit<Pairs, 'readyAt'>>((resolve, reject) => {
      worker.on('message', (message: { ready?: number; done?: Omit<Pairs, 'readyAt'> }) => {
        if (message.done) resolve(message.done);
        const id = message.ready;
        if (id === undefined) return;
        t.app.deps.hosts
          .report({
            instanceId: id,
            generation: 1,
            state: 'running',
            connection: { sshHost: 'bench' },
          })
          .then(() => {
            readyAt.set(id, Date.now());
            worker.postMessage({ reported: id });
          }, reject);
      });
      worker.once('error', reject);
    });
    return { ...done, readyAt };
  } finally {
    await worker.terminate();
  }
}

async function count(database: Database, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(await database.db.execute(query));
  return Number(row?.n ?? 0);
}

/** Waits until the log is read to its end and no delivery of `endpointIds` is pending. */
async function settled(database: Database, endpointIds: string[] | null, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  const ids = endpointIds ? `{${endpointIds.join(',')}}` : null;
  for (;;) {
    const behind = await count(
      database,
      sql`select (select coalesce(max(id), 0) from events) - coalesce((select last_id from event_readers where name = 'webhooks'), 0) as n`,
    );
    const pending = await count(
      database,
      ids
        ? sql`select count(*) as n from webhook_deliveries where status = 'pending' and endpoint_id = any(${ids}::uuid[])`
        : sql`select count(*) as n from webhook_deliveries where status = 'pending'`,
    );
    if (behind === 0 && pending === 0) return true;
    if (Date.now() > until) return false;
    await sleep(50);
  }
}

interface Latency {
  deliveries: number;
  unique: number;
  unverified: number;
  fromEvent: number[];
  fromAnswer: number[];
}

/** Arrivals against the pairs' answer times: change-to-delivery latencies. */
function latencies(all: Arrival[], run: Pairs): Latency {
  const answers = new Map(run.answered.map(([id, rent, stop]) => [id, { rent, stop }]));
  // Only this run's changes: an earlier run's instance events (a worker pass's `terminated`,
  // timed at that pass's `now`) are left out.
  const arrivals = all.filter(([, , , id]) => id === null || answers.has(id));
  const fromAnswer: number[] = [];
  for (const [arrived, , type, instanceId] of arrivals) {
    if (instanceId === null || !type.startsWith('instance.')) continue;
    const answer = answers.get(instanceId);
    const at =
      type === 'instance.created'
        ? answer?.rent
        : type === 'instance.ready'
          ? run.readyAt.get(instanceId)
          : answer?.stop;
    if (at !== undefined) fromAnswer.push(arrived - at);
  }
  return {
    deliveries: arrivals.length,
    unique: new Set(arrivals.map((a) => a[4])).size,
    unverified: arrivals.filter((a) => !a[5]).length,
    fromEvent: arrivals.map(([arrived, at]) => arrived - at),
    fromAnswer,
  };
}

/**
 * Where a delivered event's time went, from the database's own times: from the event's `at`
 * to its delivery row (the dispatcher's webhooks reader, whose transaction's start the row's
 * created_at is), and from there to the attempt's claim (first_attempt_at: the delivery loop).
 */
async function stages(database: Database, endpointIds: string[], afterEventId: number) {
  const rows = rowsOf<{ fanout: number; queued: number }>(
    await database.db.execute(sql`
      select extract(epoch from d.created_at - e.at) * 1000 as fanout,
        extract(epoch from d.first_attempt_at - d.created_at) * 1000 as queued
      from webhook_deliveries d join events e on e.id = d.event_id
      where d.endpoint_id = any(${`{${endpointIds.join(',')}}`}::uuid[]) and d.status = 'delivered'
        and d.event_id > ${afterEventId}`),
  );
  return {
    fanout: rows.map((r) => Number(r.fanout)),
    queued: rows.map((r) => Number(r.queued)),
  };
}

const ms = (fmt: Fmt, xs: number[]) =>
  `p50 ${fmt(percentile(xs, 0.5))} ms, p99 ${fmt(percentile(xs, 0.99))} ms, max ${fmt(xs.length ? Math.max(...xs) : Number.NaN)} ms`;

/** Part `webhooks`: deliveries per second and change-to-delivery latency, then the loop's ceiling. */
export async function benchWebhookDeliveries(o: WebhookBenchOptions): Promise<void> {
  const { fmt } = o;
  await withDatabase(o, 'webhooks', async (database, url) => {
    const dbName = new URL(url).pathname.slice(1);
    const receiver = await startReceiver();
    const t = await startApp(database);
    try {
      const renters = await accounts(t, database, RENTERS, receiver.url);
      await receiver.addSecrets(Object.fromEntries(renters.map((r) => [r.userId, r.secret])));
      const cookies = renters.map((r) => r.cookie);
      const types = async (since: number) =>
        rowsOf<{ type: string; n: string }>(
          await database.db.execute(
            sql`select type, count(*)::text as n from events where id > ${since} group by type order by type`,
          ),
        )
          .map((r) => `${r.type} ${r.n}`)
          .join(', ');

      // 1. Live: the pairs run, flat out and then paced, the dispatcher and the delivery loop follow.
      const loop = t.app.deps.webhooks.delivery.start(t.app.deps.clock);
      const endpointIds = renters.flatMap((r) => (r.endpointId ? [r.endpointId] : []));
      for (const pauseMs of [0, LIVE_PAUSE_MS]) {
        const firstEvent = await count(database, sql`select coalesce(max(id), 0) as n from events`);
        const started = Date.now();
        const live = await pairs(t, cookies, o.seconds, pauseMs);
        // The last pair's stop answer (a paced renter's last wait after it left out).
        const loadEnded = Math.max(started, ...live.answered.map((a) => a[2]));
        const caughtUp = await settled(database, null);
        const arrivals = await receiver.take();
        const lastArrival = Math.max(...arrivals.map((a) => a[0]));
        const during = arrivals.filter((a) => a[0] <= loadEnded).length;
        const lat = latencies(arrivals, live);
        const where = await stages(database, endpointIds, firstEvent);
        const events = await count(
          database,
          sql`select count(*) as n from events where id > ${firstEvent}`,
        );
        console.log(
          `webhook deliveries, live, ${pauseMs === 0 ? 'pairs flat out' : `paced (each renter waits ${pauseMs} ms after each pair)`} (${RENTERS} renters, each an account with one endpoint for every type; rent-then-stop ${o.seconds}s; dispatcher and delivery loop started)`,
        );
        if (live.firstFailure) console.log(`  first failure: ${live.firstFailure}`);
        console.log(
          `  ${live.pairs} pairs (${fmt(live.pairs / o.seconds, 1)}/s, ${live.failures} failures) wrote ${events} events: ${await types(firstEvent)}`,
        );
        console.log(
          `  ${lat.deliveries} deliveries (${lat.unique} distinct webhook-ids, ${lat.unverified} failing standardwebhooks verification)${caughtUp ? '' : ' — NOT all delivered within 60 s after the load'}`,
        );
        console.log(
          `  ${fmt((during / Math.max(1, loadEnded - started)) * 1000)} deliveries/s while the pairs ran; the last ${fmt(lastArrival - loadEnded)} ms after the last pair's answer (${fmt((lat.deliveries / Math.max(1, lastArrival - started)) * 1000)}/s from the first pair to the last delivery)`,
        );
        console.log(`  change → receiver, from the event's time (at):  ${ms(fmt, lat.fromEvent)}`);
        console.log(
          `  change → receiver, from the request's answer:   ${ms(fmt, lat.fromAnswer)} (${lat.fromAnswer.length} instance events)`,
        );
        console.log(
          `  of which event at → delivery row (dispatcher):  ${ms(fmt, where.fanout)}; delivery row → claimed (loop): ${ms(fmt, where.queued)}`,
        );
      }

      // 2. The ceiling: the pairs' deliveries left pending, then the loop started and timed.
      await loop.stop();
      const backlogFrom = await count(database, sql`select coalesce(max(id), 0) as n from events`);
      const queued = await pairs(t, cookies, o.seconds);
      // The dispatcher's webhooks reader fans the events out into pending deliveries.
      for (let i = 0; i < 600; i += 1) {
        const behind = await count(
          database,
          sql`select (select coalesce(max(id), 0) from events) - coalesce((select last_id from event_readers where name = 'webhooks'), 0) as n`,
        );
        if (behind === 0) break;
        await sleep(100);
      }
      const pending = await count(
        database,
        sql`select count(*) as n from webhook_deliveries where status = 'pending'`,
      );
      await receiver.take();
      const cpuBefore = cpuSnapshot(dbName);
      const drainStart = Date.now();
      const drainLoop = t.app.deps.webhooks.delivery.start(t.app.deps.clock);
      const drained = await settled(database, null, 120_000);
      const drainMs = Date.now() - drainStart;
      const cpuAfter = cpuSnapshot(dbName);
      await drainLoop.stop();
      const drainArrivals = await receiver.take();
      const drainLast = Math.max(...drainArrivals.map((a) => a[0]));
      const n = drainArrivals.length;
      console.log(
        `webhook deliveries, a backlog drained (the loop stopped during ${queued.pairs} more pairs, events since ${backlogFrom}; then started)`,
      );
      console.log(
        `  ${pending} pending → ${n} delivered in ${fmt(drainLast - drainStart)} ms: ${fmt((n / Math.max(1, drainLast - drainStart)) * 1000)} deliveries/s${drained ? '' : ' — NOT drained within 120 s'} (${fmt(drainMs)} ms until none pending was seen)`,
      );
      console.log(
        `  CPU per delivery: ${fmt((cpuAfter.thread - cpuBefore.thread) / Math.max(1, n), 2)} ms the server's thread + ${fmt(backendsCpuMs(cpuBefore, cpuAfter) / Math.max(1, n), 2)} ms PostgreSQL (the receiver's thread not counted)`,
      );
    } finally {
      await t.app.close();
      await receiver.close();
    }
  });
}

/**
 * METERED running metered instances (one user in ten of their own), paid through `at`: one
 * pass of the worker at `at` + k minutes charges each of them.
 */
async function seedMetered(database: Database, at: Date): Promise<void> {
  const users = Math.max(1, Math.round(METERED / 10));
  await seedMeteredInstances(database.db, { count: METERED, users, at });
}

/** `n` deliveries due now to `endpointId`, five events to each of n/5 subjects. */
async function insertBacklog(database: Database, endpointId: string, n: number, fromId: number) {
  await database.db.execute(sql`
    insert into webhook_deliveries (endpoint_id, event_id, event_type, subject, body, next_attempt_at)
    select ${endpointId}::uuid, ${fromId} + g, 'instance.ready', 'instance:' || (900000000 + g / 5),
      '{"type":"instance.ready","timestamp":"2026-01-01T00:00:00.000Z","data":{"instanceId":' || (900000000 + g / 5) || '}}',
      now()
    from generate_series(0, ${n - 1}) g`);
  await database.db.execute(sql`analyze webhook_deliveries`);
}

interface DeadRow {
  scenario: string;
  healthy: Latency;
  where: { fanout: number[]; queued: number[] };
  pairs: number;
  passMs: number[];
  meteredMs: number[];
  charged: number;
  claims: number[];
  deadAttempts: number;
  threadCpuMs: number;
  postgresCpuMs: number;
  windowMs: number;
  plans: string[];
}

/** Part `webhooks-dead`: 10,000 deliveries due to a dead endpoint, against none. */
export async function benchDeadEndpoint(o: WebhookBenchOptions): Promise<void> {
  const { fmt } = o;
  await withDatabase(o, 'webhooks_dead', async (database, url, log) => {
    const dbName = new URL(url).pathname.slice(1);
    const receiver = await startReceiver();
    // A port nothing listens on (refused at once), and a server that never answers.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const t = await startApp(database);
    // Claims as the loop makes them (repo.claim is looked up at each call): how long each takes.
    const claims: number[] = [];
    const claim = webhooksRepo.claim;
    webhooksRepo.claim = async (...args) => {
      const started = performance.now();
      try {
        return await claim(...args);
      } finally {
        claims.push(performance.now() - started);
      }
    };
    // The metered-minute job's own time in each pass.
    const meteredMs: number[] = [];
    const metered = t.app.deps.worker.jobs.find((j) => j.name === 'metered-minute');
    if (metered) {
      const run = metered.run.bind(metered);
      metered.run = async (now, batch) => {
        const started = performance.now();
        try {
          return await run(now, batch);
        } finally {
          meteredMs.push(performance.now() - started);
        }
      };
    }
    const seededAt = new Date();
    let minute = 0;
    try {
      await seedMetered(database, seededAt);
      // Two renters of one healthy account, its endpoint at the receiver.
      const [healthy] = await accounts(t, database, 1, receiver.url);
      if (!healthy?.endpointId) throw new Error('no healthy endpoint');
      await receiver.addSecrets({ [healthy.userId]: healthy.secret });
      const token = randomToken();
      await database.db.execute(
        sql`insert into sessions (token_hash, user_id, expires_at) values (${hashSessionToken(token)}, ${healthy.userId}, now() + interval '1 day')`,
      );
      const cookies = [healthy.cookie, `rentgpu_session=${token}`];
      const [refused] = await accounts(t, database, 1, null);
      const [hanging] = await accounts(t, database, 1, null);
      if (!refused || !hanging) throw new Error('no dead accounts');
      const deadRefused = await t.app.deps.webhooks.service.create(refused.userId, {
        url: `http://127.0.0.1:${closedPort}/dead`,
        types: ['*'],
        description: 'refused',
      });
      const deadHanging = await t.app.deps.webhooks.service.create(hanging.userId, {
        url: `${silentUrl}/dead`,
        types: ['*'],
        description: 'never answers',
      });
      await database.db.execute(sql`vacuum analyze instances, ledger_accounts`);
      // One pass first: the passes measured start from a warm process.
      await t.app.deps.worker.runOnce(new Date(seededAt.getTime() + ++minute * 60_000));

      const rows: DeadRow[] = [];
      const scenarios = [
        { scenario: 'no backlog', endpointId: null },
        {
          scenario: `${fmt(DEAD_BACKLOG)} due to a refused port`,
          endpointId: deadRefused.id,
        },
        {
          scenario: `${fmt(DEAD_BACKLOG)} due to a silent server (10 s timeout)`,
          endpointId: deadHanging.id,
        },
      ];
      let nextEventId = 1_000_000_000;
      for (const { scenario, endpointId } of scenarios) {
        // The previous scenario's backlog is gone: its endpoint's deliveries failed for good.
        await database.db.execute(
          sql`update webhook_deliveries set status = 'failed', next_attempt_at = null, claimed_until = null where status = 'pending' and endpoint_id <> ${healthy.endpointId}::uuid`,
        );
        if (endpointId) {
          await insertBacklog(database, endpointId, DEAD_BACKLOG, nextEventId);
          nextEventId += DEAD_BACKLOG;
        }
        const attemptsOf = () =>
          endpointId
            ? count(
                database,
                sql`select coalesce(sum(attempts), 0) as n from webhook_deliveries where endpoint_id = ${endpointId}::uuid`,
              )
            : Promise.resolve(0);
        const attemptsBefore = await attemptsOf();
        claims.length = 0;
        meteredMs.length = 0;
        const cpuBefore = cpuSnapshot(dbName);
        const windowStart = Date.now();
        const loop = t.app.deps.webhooks.delivery.start(t.app.deps.clock);
        // (b) The healthy account's changes and their deliveries, the dead backlog beside them.
        const firstEvent = await count(database, sql`select coalesce(max(id), 0) as n from events`);
        const run = await pairs(t, cookies, o.seconds, HEALTHY_PAUSE_MS);
        await settled(database, [healthy.endpointId], 60_000);
        const healthyLat = latencies(await receiver.take(), run);
        const where = await stages(database, [healthy.endpointId], firstEvent);
        // (a) The worker's passes, the loop still running.
        const passMs: number[] = [];
        let charged = 0;
        for (let i = 0; i < WORKER_PASSES; i += 1) {
          const started = performance.now();
          const done = await t.app.deps.worker.runOnce(
            new Date(seededAt.getTime() + ++minute * 60_000),
          );
          passMs.push(performance.now() - started);
          charged += done['metered-minute'] ?? 0;
        }
        const windowMs = Date.now() - windowStart;
        const cpuAfter = cpuSnapshot(dbName);
        const claimsSeen = [...claims];
        const deadAttempts = (await attemptsOf()) - attemptsBefore;
        await loop.stop();
        // (c) The claim's statements with this backlog, under EXPLAIN ANALYZE (rolled back).
        const plans = endpointId ? await explainClaim(database, url, log, endpointId) : [];
        rows.push({
          scenario,
          healthy: healthyLat,
          where,
          pairs: run.pairs,
          passMs,
          meteredMs: [...meteredMs],
          charged,
          claims: claimsSeen,
          deadAttempts,
          threadCpuMs: cpuAfter.thread - cpuBefore.thread,
          postgresCpuMs: backendsCpuMs(cpuBefore, cpuAfter),
          windowMs,
          plans,
        });
      }
      printDead(o, rows);
    } finally {
      webhooksRepo.claim = claim;
      await t.app.close();
      await receiver.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
}

/**
 * With the backlog (`endpointId`'s pending deliveries) due now: one claim as the loop makes
 * it, its statements recorded, then every lease it took given
 * back; each statement run again under EXPLAIN (ANALYZE, BUFFERS) in a transaction rolled back.
 */
async function explainClaim(
  database: Database,
  url: string,
  log: StatementLog,
  endpointId: string | null,
) {
  // The backlog due again (its attempts so far pushed it back by the retry delays).
  if (endpointId) {
    await database.db.execute(
      sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second' where status = 'pending' and endpoint_id = ${endpointId}::uuid`,
    );
  }
  const now = new Date();
  const statements: Statement[] = await log.during(() =>
    webhooksRepo.claim(database.db, now, new Date(now.getTime() + 60_000), 32, 2),
  );
  await database.db.execute(
    sql`update webhook_deliveries set claimed_until = null, attempts = greatest(attempts - 1, 0) where claimed_until > now() + interval '30 seconds'`,
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: string[] = [];
  try {
    for (const s of statements.filter((st) => /webhook_deliveries/.test(st.sql))) {
      if (!/for update of e skip locked|update webhook_deliveries w/.test(s.sql)) continue;
      await client.query('begin');
      try {
        const explained = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers, costs off) ${s.sql}`,
          s.params,
        );
        out.push(explained.rows.map((r) => r['QUERY PLAN']).join('\n'));
      } finally {
        await client.query('rollback');
      }
    }
  } finally {
    await client.end();
  }
  return out;
}

function printDead(o: WebhookBenchOptions, rows: DeadRow[]) {
  const { fmt } = o;
  const med = (xs: number[]) => percentile(xs, 0.5);
  console.log(
    `webhooks: a dead endpoint's backlog (another account's), the delivery loop and dispatcher started; ${fmt(METERED)} running metered instances; the healthy account: 2 renters, rent-then-stop ${o.seconds}s, each waiting ${HEALTHY_PAUSE_MS} ms after each pair, one endpoint for every type`,
  );
  const header = [
    'backlog',
    'healthy deliveries',
    'healthy change→receiver from answer p50/p99 ms',
    'from event at p50/p99 ms',
    '  of which event → delivery row p50/p99 ms',
    '  of which delivery row → claimed p50/p99 ms',
    'worker pass median/max ms',
    'metered-minute median ms',
    'claims (n, median/p99 ms)',
    'dead attempts',
    'CPU ms/s server + PostgreSQL',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    `${r.healthy.deliveries} (${r.pairs} pairs, ${r.healthy.unverified} unverified)`,
    `${fmt(percentile(r.healthy.fromAnswer, 0.5))} / ${fmt(percentile(r.healthy.fromAnswer, 0.99))}`,
    `${fmt(percentile(r.healthy.fromEvent, 0.5))} / ${fmt(percentile(r.healthy.fromEvent, 0.99))}`,
    `${fmt(percentile(r.where.fanout, 0.5))} / ${fmt(percentile(r.where.fanout, 0.99))}`,
    `${fmt(percentile(r.where.queued, 0.5))} / ${fmt(percentile(r.where.queued, 0.99))}`,
    `${fmt(med(r.passMs))} / ${fmt(Math.max(...r.passMs))}`,
    `${fmt(med(r.meteredMs))} (${fmt(r.charged / WORKER_PASSES)} charged a pass)`,
    `${r.claims.length}, ${fmt(med(r.claims), 1)} / ${fmt(percentile(r.claims, 0.99), 1)}`,
    String(r.deadAttempts),
    `${fmt((r.threadCpuMs / r.windowMs) * 1000)} + ${fmt((r.postgresCpuMs / r.windowMs) * 1000)}`,
  ]);
  for (let c = 0; c < header.length; c += 1) {
    console.log(
      `  ${(header[c] as string).padEnd(48)} ${lines.map((l) => (l[c] as string).padEnd(38)).join(' ')}`,
    );
  }
  // The plans' nodes and their times (conditions, filters and buffers left out).
  for (const r of rows) {
    if (r.plans.length === 0) continue;
    console.log(`  the claim's statements with ${r.scenario}, EXPLAIN ANALYZE:`);
    for (const plan of r.plans) {
      const kept = plan
        .split('\n')
        .filter((line) => /^\S|->|Execution Time|Rows Removed/.test(line))
        .map((line) => `    ${line.replace(/\(actual time=([\d.]+)\.\.([\d.]+) /, '($2 ms ')}`);
      console.log(kept.join('\n'));
    }
  }
}
