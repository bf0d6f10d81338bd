/**
 * `npm run bench`: the listing and stats endpoints against a bare node:http server
 * answering the same bytes (same machine, same run), then rent-and-stop throughput with
 * an invariant check, then (PostgreSQL) the same pairs through one and through two real server
 * processes (scripts/bench/processes.ts), then 10,000 hosts heartbeating every 30 s while
 * rentals run. Runs on the embedded database, and on PostgreSQL when DATABASE_URL is set
 * (in a scratch database that is dropped afterwards).
 *
 * BENCH_LISTINGS=100000 seeds that many listings instead of 10,000; part `shapes` measures
 * each marketplace query shape with the read cache off (scripts/bench/listing-shapes.ts;
 * BENCH_EXPLAIN=1 prints their plans on PostgreSQL, BENCH_ALLOC=1 what a request allocates on
 * the server's thread: scripts/bench/allocations.ts, BENCH_RAW_SHAPES=1 each shape's own
 * statements behind a bare node:http server: scripts/bench/raw-statements.ts). The seeded
 * tables are vacuumed and analysed, as autovacuum does within a minute of such a load;
 * BENCH_NO_ANALYZE=1 measures them fresh, without statistics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../../server/app';
import { type Database, openDatabase } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { randomToken } from '../../server/lib/crypto';
import { hashSessionToken } from '../../server/modules/auth/service';
import type { HostsService } from '../../server/modules/hosts/service';
import type { InstancesService } from '../../server/modules/instances/service';
import { checkInvariants } from '../../server/modules/ledger/invariants';
import { createUser } from '../../server/seed/factories';
import { backendsCpuMs, cpuProfiler, cpuSnapshot, procCpuMs } from './cpu';
import { benchDbClient } from './db-client';
import {
  databaseUrl,
  listenLocal,
  printPreparedPlans,
  seedMeteredInstances,
  silentMailer,
} from './helpers';
import { benchKeyPair } from './keypair';
import { benchShapes } from './listing-shapes';
import { benchPageSlots } from './page-slots';
import { benchProcesses } from './processes';
import { rawPageServer } from './raw-page';
import { createRawPairs, type RawPairs, rawHttpServer, rawRenters } from './raw-rent';
import { benchDeadEndpoint, benchWebhookDeliveries } from './webhooks';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 10_000);
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const RENT_WORKERS = 32;
/**
 * PostgreSQL connections of the server under test, and of the raw-SQL anchor (BENCH_POOL to try
 * others). 2 to 20 on this 2-core machine, 2026-11-30, two rounds each: PostgreSQL's CPU a
 * request or pair a little lower with 3–8, the rates and p99 within the rounds' noise.
 */
const POOL_SIZE = Number(process.env.BENCH_POOL ?? 20);
/**
 * On PostgreSQL the app and the raw-SQL anchors take turns, in this many rounds of
 * DURATION_S / RENT_ROUNDS each: load from elsewhere on the machine falls on all of them.
 */
const RENT_ROUNDS = 4;
const METERED = 10_000;
/** Hosts heartbeating every 30 s: 10,000 of them make 333 heartbeats a second. */
const HOSTS = 10_000;
const HEARTBEATS_PER_S = HOSTS / 30;
/**
 * BENCH_ONLY=listings,shapes,rent,processes,heartbeats,metered runs only those parts (all when
 * unset). BENCH_CAPS=1 gives the metered part's users daily and monthly spend caps. The
 * PostgreSQL-only parts on fresh databases of their own (issue 40): rent-events (rent-then-stop
 * with the event log's triggers off and on), webhooks and webhooks-dead
 * (scripts/bench/webhooks.ts). keypair: the web console's key pair a launch makes; page-slots:
 * filling a marketplace page's slots (no database either: scripts/bench/keypair.ts,
 * page-slots.ts). Rent-then-stop: BENCH_STATEMENTS=1 lists the app's statements
 * per pair, BENCH_PROFILE=<prefix> writes this thread's CPU profile of the app's rounds (and
 * of each marketplace shape's load: listing-shapes.ts),
 * BENCH_RAW=0 runs the app alone (no raw-SQL anchors: an older commit's server).
 */
const ONLY = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const runs = (part: string) => ONLY.size === 0 || ONLY.has(part);
const OWN_DATABASE_PARTS = [
  'rent-events',
  'webhooks',
  'webhooks-dead',
  'keypair',
  'page-slots',
  'db-client',
];
/** Only parts that make their own databases or need none: the listings' bench database is not made. */
const onlyOwnDatabaseParts =
  ONLY.size > 0 && [...ONLY].every((part) => OWN_DATABASE_PARTS.includes(part));

/**
 * Statements sent to PostgreSQL by this process (the server under test), counted at the
 * driver: what one rent-then-stop pair costs in round trips.
 */
const statements = { count: 0, byText: null as Map<string, number> | null };
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.count += 1;
  if (statements.byText) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?'))
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 110);
    statements.byText.set(text, (statements.byText.get(text) ?? 0) + 1);
  }
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof sendQuery;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered. */
  requests: number;
}

/**
 * Loads a URL from a worker thread of its own: the server under test (and the bare one) runs on
 * this process's main thread, and a load generator sharing that event loop would add its own
 * work to every request's latency and take the server's turns.
 */
async function cannon(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: DURATION_S,
    workers: 1,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

/** A server that answers every request with the given bytes: the ceiling for this machine. */
async function bareServer(
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `url`'s answer, and what a bare server answering its bytes does (the ceiling). */
async function bareCeiling(url: string): Promise<{ body: Buffer; ceiling: Figures }> {
  const sample = await fetch(url);
  const body = Buffer.from(await sample.arrayBuffer());
  const bare = await bareServer(body, {
    'content-type': sample.headers.get('content-type') ?? 'application/json',
  });
  const ceiling = await cannon(bare.url);
  await bare.close();
  return { body, ceiling };
}

async function seed(database: Database): Promise<void> {
  await database.db.execute(sql`
    insert into providers (company_name, location, is_verified, reputation)
    select 'Bench Provider ' || g, 'City ' || g, g % 3 <> 0, 3.5 + (g % 15) / 10.0 from generate_series(1, 200) g`);
  await database.db.execute(sql`
    insert into gpu_listings (provider_id, model, memory, cuda_cores, tensor_cores, location, bandwidth,
      hourly_rate_micros, status, available_count, total_count, specifications, memory_gb, performance_score, is_demo_host)
    select p.id, m.model, m.memory, 10000, 300, 'City ' || (g % 97), '10 Gbps',
      (500000 + (g * 7919 % 4000) * 10000)::bigint,
      case when g % 20 = 0 then 'maintenance' else 'available' end,
      1000, 1000, '{"pcieLanes":"16x","cooling":"Air Cooled"}'::jsonb, m.gb, m.score, true
    from generate_series(1, ${LISTINGS}) g
    join lateral (select id from providers order by id offset (g % 200) limit 1) p on true
    join lateral (select * from (values
      ('RTX 4090', '24GB', 24, 540), ('A100 80GB', '80GB', 80, 1000), ('H100', '80GB', 80, 2400),
      ('RTX 3090', '24GB', 24, 200), ('V100', '32GB', 32, 380)) as v(model, memory, gb, score)
      offset (g % 5) limit 1) m on true`);
}

/** RENT_WORKERS new users with credits, each signed in: their session cookies' tokens. */
async function benchRenters(
  database: Database,
  options: { alerts?: boolean } = {},
): Promise<string[]> {
  const users = await Promise.all(
    Array.from({ length: RENT_WORKERS }, () =>
      database.db.transaction((tx) => createUser(tx, { credits: '1000000.00' })),
    ),
  );
  if (options.alerts === false) {
    // The raw-SQL anchor's renters: the app's mail reader (which reads every event, theirs too)
    // composes no ready alert for them, so the app does no work for the anchor's pairs.
    await database.db.execute(
      sql`update users set settings = jsonb_set(settings, '{notifications}', coalesce(settings -> 'notifications', '{}') || '{"instanceAlerts": false}') where id = any(${`{${users.map((u) => u.id).join(',')}}`}::uuid[])`,
    );
  }
  // Sessions are inserted directly, as the test helpers do (a demo-less OTP sign-in is slow).
  const tokens: string[] = [];
  for (const user of users) {
    const token = randomToken();
    await database.db.execute(
      sql`insert into sessions (token_hash, user_id, expires_at) values (${hashSessionToken(token)}, ${user.id}, now() + interval '1 day')`,
    );
    tokens.push(token);
  }
  return tokens;
}

type ListingPage = { id: number; providerId: number; hourlyRate: string }[];

/** The cheapest hundred listings, as the marketplace page shows them: what the renters rent. */
async function rentablePage(base: string): Promise<ListingPage> {
  return (await (
    await fetch(`${base}/api/gpu-listings?limit=100&sort=price-asc`)
  ).json()) as ListingPage;
}

/** What a run of pairs did, and this thread's busy time, the process's CPU and the statements sent meanwhile. */
interface PairRun {
  seconds: number;
  pairs: number;
  failures: number;
  firstFailure: string | null;
  loopMs: number;
  userMs: number;
  systemMs: number;
  statements: number;
  /** CPU time of this thread and of the PostgreSQL backends serving the database (Linux). */
  threadCpuMs: number;
  postgresCpuMs: number;
}

const noPairs: PairRun = {
  seconds: 0,
  pairs: 0,
  failures: 0,
  firstFailure: null,
  loopMs: 0,
  userMs: 0,
  systemMs: 0,
  statements: 0,
  threadCpuMs: 0,
  postgresCpuMs: 0,
};

function addRuns(a: PairRun, b: PairRun): PairRun {
  return {
    seconds: a.seconds + b.seconds,
    pairs: a.pairs + b.pairs,
    failures: a.failures + b.failures,
    firstFailure: a.firstFailure ?? b.firstFailure,
    loopMs: a.loopMs + b.loopMs,
    userMs: a.userMs + b.userMs,
    systemMs: a.systemMs + b.systemMs,
    statements: a.statements + b.statements,
    threadCpuMs: a.threadCpuMs + b.threadCpuMs,
    postgresCpuMs: a.postgresCpuMs + b.postgresCpuMs,
  };
}

type Pairs = { pairs: number; failures: number; firstFailure: string | null };

/** `database`: the PostgreSQL database's name, whose backends' CPU is counted (none for PGlite). */
async function measured(
  seconds: number,
  work: () => Promise<Pairs>,
  database?: string,
): Promise<PairRun> {
  const eluBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const snapshotBefore = cpuSnapshot(database);
  const statementsBefore = statements.count;
  const done = await work();
  const elu = performance.eventLoopUtilization(eluBefore);
  const cpu = process.cpuUsage(cpuBefore);
  const snapshotAfter = cpuSnapshot(database);
  return {
    ...done,
    seconds,
    loopMs: elu.active,
    userMs: cpu.user / 1000,
    systemMs: cpu.system / 1000,
    statements: statements.count - statementsBefore,
    threadCpuMs: snapshotAfter.thread - snapshotBefore.thread,
    postgresCpuMs: backendsCpuMs(snapshotBefore, snapshotAfter),
  };
}

const perPair = (run: PairRun) => {
  const n = Math.max(1, run.pairs);
  return {
    pairsPerSecond: run.pairs / Math.max(run.seconds, Number.EPSILON),
    loopMs: run.loopMs / n,
    userMs: run.userMs / n,
    systemMs: run.systemMs / n,
    statements: run.statements / n,
    threadCpuMs: run.threadCpuMs / n,
    postgresCpuMs: run.postgresCpuMs / n,
  };
};

/**
 * RENT_WORKERS renters in a worker thread (scripts/bench/rent-load.mjs), so that their
 * requests never compete with the server under test for its event loop. `ready` is the
 * host's report (what the agent or the demo host does) before the renter stops.
 */
async function httpRenters(
  base: string | string[],
  cookies: string[],
  page: ListingPage,
  seconds: number,
  ready: (instanceId: number) => Promise<unknown>,
): Promise<Pairs> {
  const worker = new Worker(new URL('./rent-load.mjs', import.meta.url), {
    workerData: {
      bases: typeof base === 'string' ? [base] : base,
      cookies,
      listings: page,
      seconds,
    },
  });
  try {
    return await new Promise<Pairs>((resolve, reject) => {
      worker.on('message', (message: { ready?: number; done?: Pairs }) => {
        if (message.done) resolve(message.done);
        const id = message.ready;
        if (id === undefined) return;
        ready(id).then(() => worker.postMessage({ reported: id }), reject);
      });
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

const sessionCookies = (tokens: string[]) => tokens.map((token) => `rentgpu_session=${token}`);

/** The server's ready report for an instance, as its host sends it. */
const reportReady = (hosts: HostsService) => (instanceId: number) =>
  hosts.report({ instanceId, generation: 1, state: 'running', connection: { sshHost: 'bench' } });

async function rentAndStop(
  base: string,
  database: Database,
  hosts: HostsService,
  page: ListingPage,
  /** PostgreSQL's database: its backends' CPU is measured too. */
  databaseName?: string,
): Promise<PairRun> {
  const cookies = sessionCookies(await benchRenters(database));
  // One uncounted second first, as rentAndStopAgainstRawSql and the shapes have: counted
  // cold, the JIT's first compiles and each connection's first statements fell on the pairs.
  await httpRenters(base, cookies, page, 1, reportReady(hosts));
  // The renters run in a worker thread; this thread's busy time is the server's (and the ready reports').
  return measured(
    DURATION_S,
    () => httpRenters(base, cookies, page, DURATION_S, reportReady(hosts)),
    databaseName,
  );
}

/**
 * The app, and the same pairs as hand-written SQL through `pg` (scripts/bench/raw-rent.ts)
 * with as many renters and connections against the same database — with no HTTP (what
 * PostgreSQL allows on this machine: the anchor the app's rate is a share of), and behind a
 * bare node:http server (what HTTP itself costs) — taking turns in RENT_ROUNDS rounds.
 */
async function rentAndStopAgainstRawSql(
  base: string,
  url: string,
  database: Database,
  hosts: HostsService,
  page: ListingPage,
  env: { PLATFORM_FEE_BPS: number; PROVISIONING_TIMEOUT_MS: number },
) {
  const appCookies = sessionCookies(await benchRenters(database));
  const rawTokens = await benchRenters(database, { alerts: false });
  const bareCookies = sessionCookies(await benchRenters(database, { alerts: false }));
  const raw: RawPairs = await createRawPairs({
    url,
    poolSize: POOL_SIZE,
    platformFeeBps: env.PLATFORM_FEE_BPS,
    provisioningTimeoutMs: env.PROVISIONING_TIMEOUT_MS,
  });
  const bare = await rawHttpServer(raw, hashSessionToken);
  const slice = DURATION_S / RENT_ROUNDS;
  const name = new URL(url).pathname.slice(1);
  const statementTexts = process.env.BENCH_STATEMENTS === '1' ? new Map<string, number>() : null;
  let app = noPairs;
  let rawSql = noPairs;
  let rawHttp = noPairs;
  let profiler: Awaited<ReturnType<typeof cpuProfiler>> = null;
  try {
    // One uncounted second of each first, as the shapes have: a renter's or a provider's
    // ledger accounts are looked up once per process (createAccountBook), statements are
    // prepared once per connection and the JIT warms up. Counted cold, the app's first pairs
    // carried about 0.7 statements a pair of first-use account reads.
    await httpRenters(base, appCookies, page, 1, reportReady(hosts));
    await rawRenters(raw, rawTokens, page, 1, hashSessionToken);
    await httpRenters(bare.url, bareCookies, page, 1, raw.ready);
    profiler = await cpuProfiler();
    for (let round = 0; round < RENT_ROUNDS; round += 1) {
      if (statementTexts) statements.byText = statementTexts;
      await profiler?.start();
      app = addRuns(
        app,
        await measured(
          slice,
          () => httpRenters(base, appCookies, page, slice, reportReady(hosts)),
          name,
        ),
      );
      // BENCH_PROFILE: this thread's CPU profile of the app's rounds only.
      await profiler?.stop(`rent-${round}`);
      statements.byText = null;
      // Here the renters run in this thread: its busy time is theirs and the SQL client's.
      rawSql = addRuns(
        rawSql,
        await measured(
          slice,
          () => rawRenters(raw, rawTokens, page, slice, hashSessionToken),
          name,
        ),
      );
      rawHttp = addRuns(
        rawHttp,
        await measured(
          slice,
          () => httpRenters(bare.url, bareCookies, page, slice, raw.ready),
          name,
        ),
      );
    }
  } finally {
    profiler?.close();
    await bare.close();
    await raw.close();
  }
  if (process.env.BENCH_PLANS === '1') await printPreparedPlans(database.db, POOL_SIZE, fmt);
  if (statementTexts) {
    // BENCH_STATEMENTS=1: what the app's statements were, per pair, most frequent first.
    console.log(`the app's statements per pair (BENCH_STATEMENTS=1), by their first words:`);
    for (const [text, n] of [...statementTexts].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${fmt(n / Math.max(1, app.pairs), 2).padStart(6)}  ${text}`);
    }
  }
  return { app, rawSql, rawHttp };
}

/**
 * One minute of the metered-minute job for METERED running instances (1,000 users with ten
 * each): every instance's minute is its own ledger transaction, written in batches.
 */
async function meteredMinute(database: Database, instances: InstancesService) {
  const db = database.db;
  const now = new Date();
  await seedMeteredInstances(db, { count: METERED, users: 1000, at: now });
  if (process.env.BENCH_CAPS === '1') {
    // Every bench user with daily and monthly spend caps far above a minute's spend.
    await db.execute(sql`
      update users set settings = '{"billing":{"dailySpendCap":"1000000","monthlySpendCap":"1000000"}}'::jsonb
      where email like 'metered-%@bench.test'`);
  }
  const started = performance.now();
  let charged = 0;
  for (;;) {
    const n = await instances.chargeMeteredMinute(now, 500);
    if (n === 0) break;
    charged += n;
  }
  const ms = performance.now() - started;
  const problems = await checkInvariants(db, { billedUpTo: now });
  return { charged, ms, problems };
}

/**
 * HOSTS enrolled hosts, each with a credential `bench-host-<n>-credential` (only its hash
 * stored, as enrolment leaves it) and, for one host in ten, a listing with a running
 * instance, so a tenth of the heartbeats answer a desired instance.
 */
async function seedHosts(database: Database): Promise<void> {
  const db = database.db;
  await db.execute(sql`
    insert into hosts (id, provider_id, name, enrolled_at, credential_hash, hostname, agent_version,
      accelerator, last_heartbeat_at)
    select 'bench-host-' || g, (select id from providers order by id offset (g % 200) limit 1),
      'host ' || g, now(), encode(sha256(convert_to('bench-host-' || g || '-credential', 'UTF8')), 'hex'),
      'host-' || g, 'bench', 'kvm', now()
    from generate_series(1, ${HOSTS}) g`);
  await db.execute(sql`
    insert into gpu_listings (provider_id, model, memory, cuda_cores, tensor_cores, location, bandwidth,
      hourly_rate_micros, status, available_count, total_count, specifications, memory_gb,
      performance_score, is_demo_host, host_id, host_gpu_indexes)
    select h.provider_id, 'RTX 4090', '24GB', 16384, 512, 'Host city', '10 Gbps', 45000000, 'available',
      1, 2, '{}'::jsonb, 24, 540, false, h.id, '[0,1]'::jsonb
    from hosts h where h.id like 'bench-host-%' and substring(h.id from 12)::int % 10 = 0`);
  const user = await db.transaction((tx) => createUser(tx, { credits: '1000.00' }));
  const at = new Date().toISOString();
  await db.execute(sql`
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, hourly_rate_micros, storage_gb, start_time, provisioning_deadline, ready_at,
      duration_hours, ends_at, booked_cost_micros, gpu_indexes, vnc_password, ssh_host, ssh_port)
    select ${user.id}::uuid, l.id, l.provider_id, l.host_id, 'marketplace', 'booked', 'running',
      l.hourly_rate_micros, 50, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz, 720,
      ${at}::timestamptz + interval '720 hours', 0, '[0]'::jsonb, 'benchpw1', l.host_id, 22000
    from gpu_listings l where l.host_id like 'bench-host-%'`);
}

interface HeartbeatFigures {
  answered: number;
  perSecond: number;
  failures: number;
  p50: number;
  p99: number;
}

/** Starts scripts/bench/heartbeat-load.mjs in a worker thread; `stop()` returns its figures. */
function heartbeatLoad(base: string) {
  const worker = new Worker(new URL('./heartbeat-load.mjs', import.meta.url), {
    workerData: { base, hosts: HOSTS, rate: HEARTBEATS_PER_S },
  });
  const result = new Promise<HeartbeatFigures>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop(): Promise<HeartbeatFigures> {
      worker.postMessage('stop');
      const figures = await result;
      await worker.terminate();
      return figures;
    },
  };
}

/**
 * `cannon` on the server in this thread, with its CPU per request: of this thread (the load
 * runs in a worker thread of its own) and, on PostgreSQL, of the backends of `database`.
 */
async function cannonWithCpu(
  target: string,
  database: string | undefined,
  headers: Record<string, string> = {},
) {
  const before = cpuSnapshot(database);
  const figures = await cannon(target, headers);
  const after = cpuSnapshot(database);
  const perRequest = (ms: number) => fmt((ms * 1000) / Math.max(figures.requests, 1));
  const cpu = `server ${perRequest(after.thread - before.thread)} µs${database ? ` + PostgreSQL ${perRequest(backendsCpuMs(before, after))} µs` : ''}`;
  return { figures, cpu };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * `postgresUrl`: the database's PostgreSQL address (none for the embedded one), for the listing
 * shapes' plans and the rent-then-stop raw-SQL anchor.
 */
async function benchOn(
  label: string,
  database: Database,
  postgresUrl: string | null = null,
): Promise<void> {
  const url = postgresUrl ?? undefined;
  const databaseName = postgresUrl ? new URL(postgresUrl).pathname.slice(1) : undefined;
  await database.migrate();
  console.log(`\n=== ${label}: seeding ${fmt(LISTINGS)} listings ===`);
  await seed(database);
  if (process.env.BENCH_NO_ANALYZE !== '1')
    await database.db.execute(sql`vacuum analyze gpu_listings, providers`);
  const env = parseEnv({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://bench.example',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
  });
  const app = await createApp({ env, database, logger: false, webDir: null, mailer: silentMailer });
  const base = await listenLocal(app);
  try {
    if (runs('listings')) {
      for (const path of ['/api/gpu-listings', '/api/marketplace/stats']) {
        const { body, ceiling } = await bareCeiling(base + path);
        const { figures: ours, cpu } = await cannonWithCpu(base + path, databaseName);
        console.log(
          `${path}  (${fmt(body.length)} bytes, ${CONNECTIONS} connections, ${DURATION_S}s each)`,
        );
        console.log(
          `  bare node:http  ${fmt(ceiling.rps)} req/s  p50 ${ceiling.p50} ms  p99 ${ceiling.p99} ms`,
        );
        console.log(
          `  RentGPU         ${fmt(ours.rps)} req/s  p50 ${ours.p50} ms  p99 ${ours.p99} ms  | CPU per request: ${cpu}`,
        );
        console.log(`  ratio           ${fmt((ours.rps / ceiling.rps) * 100, 1)}% of bare`);
      }
      // The same listing page with the read cache off: every request reaches the database.
      const uncached = await createApp({
        env: { ...env, READ_CACHE_TTL_MS: 0 },
        database,
        logger: false,
        webDir: null,
        mailer: silentMailer,
      });
      const uncachedBase = await listenLocal(uncached);
      try {
        const path = '/api/gpu-listings';
        const { ceiling } = await bareCeiling(uncachedBase + path);
        // The same statement per request behind a bare node:http server (raw-page.ts).
        let rawLine: { figures: Figures; cpu: string } | null = null;
        if (url) {
          const raw = await rawPageServer(url, POOL_SIZE);
          try {
            rawLine = await cannonWithCpu(raw.url + path, databaseName);
          } finally {
            await raw.close();
          }
        }
        const { figures: ours, cpu } = await cannonWithCpu(uncachedBase + path, databaseName);
        console.log(`${path}  with the read cache off (READ_CACHE_TTL_MS=0)`);
        console.log(
          `  bare node:http  ${fmt(ceiling.rps)} req/s  p50 ${ceiling.p50} ms  p99 ${ceiling.p99} ms  (the same bytes, no database)`,
        );
        if (rawLine) {
          const { figures: raw, cpu: rawCpu } = rawLine;
          console.log(
            `  raw SQL         ${fmt(raw.rps)} req/s  p50 ${raw.p50} ms  p99 ${raw.p99} ms  | CPU per request: ${rawCpu}  (the app's statement through pg behind node:http: ${fmt((raw.rps / ceiling.rps) * 100, 1)}% of bare)`,
          );
        }
        console.log(
          `  RentGPU         ${fmt(ours.rps)} req/s  p50 ${ours.p50} ms  p99 ${ours.p99} ms  | CPU per request: ${cpu}`,
        );
        console.log(
          `  ratio           ${fmt((ours.rps / ceiling.rps) * 100, 1)}% of bare${rawLine ? `, ${fmt((ours.rps / rawLine.figures.rps) * 100, 1)}% of raw SQL behind node:http` : ''}`,
        );
      } finally {
        await uncached.close();
      }
    }
    if (runs('shapes')) {
      await benchShapes({
        env,
        database,
        mailer: silentMailer,
        postgresUrl,
        poolSize: POOL_SIZE,
        cannonWithCpu: (target, headers) => cannonWithCpu(target, databaseName, headers),
        bare: async (body, contentType) => {
          const bare = await bareServer(body, { 'content-type': contentType });
          const figures = await cannon(bare.url);
          await bare.close();
          return figures;
        },
        fmt,
      });
    }
    let rentAlone: number | undefined;
    if (runs('rent')) {
      const page = await rentablePage(base);
      // BENCH_RAW=0: the app alone (an older commit's server, whose schema the raw SQL predates).
      const compared =
        url && process.env.BENCH_RAW !== '0'
          ? await rentAndStopAgainstRawSql(base, url, database, app.deps.hosts, page, env)
          : null;
      const run =
        compared?.app ??
        (await rentAndStop(
          base,
          database,
          app.deps.hosts,
          page,
          url ? new URL(url).pathname.slice(1) : undefined,
        ));
      const rs = perPair(run);
      rentAlone = rs.pairsPerSecond;
      const problems = await checkInvariants(database.db);
      console.log(
        `rent-then-stop (${RENT_WORKERS} concurrent renters, ${DURATION_S}s${compared ? ` each, in ${RENT_ROUNDS} alternating rounds` : ''})`,
      );
      if (run.firstFailure) console.log(`  first failure: ${run.firstFailure}`);
      console.log(
        `  ${fmt(rs.pairsPerSecond, 1)} pairs/s (${run.pairs} pairs, ${run.failures} failures); ${fmt(rs.loopMs, 1)} ms of the server's event loop per pair`,
      );
      if (rs.statements > 0) {
        console.log(
          `  ${fmt(rs.statements, 1)} SQL statements per pair (rent, ready report and its alert, stop; BEGIN and COMMIT count)`,
        );
      }
      console.log(
        `  CPU of the whole bench process (server, renters' thread, GC) per pair: user ${fmt(rs.userMs, 1)} ms, system ${fmt(rs.systemMs, 1)} ms`,
      );
      if (!compared && rs.postgresCpuMs > 0) {
        console.log(
          `  CPU per pair: ${fmt(rs.threadCpuMs, 2)} ms this thread + ${fmt(rs.postgresCpuMs, 2)} ms PostgreSQL`,
        );
      }
      if (compared) {
        const raw = perPair(compared.rawSql);
        const bare = perPair(compared.rawHttp);
        for (const failed of [compared.rawSql, compared.rawHttp]) {
          if (failed.firstFailure) console.log(`  raw SQL first failure: ${failed.firstFailure}`);
        }
        const share = (a: number, b: number) =>
          `${fmt((a / Math.max(b, Number.EPSILON)) * 100, 1)}%`;
        const cpu = (run: ReturnType<typeof perPair>) =>
          `${fmt(run.threadCpuMs, 2)} ms this thread + ${fmt(run.postgresCpuMs, 2)} ms PostgreSQL`;
        console.log(
          `  raw SQL through pg, no HTTP (scripts/bench/raw-rent.ts, ${POOL_SIZE} connections): ${fmt(raw.pairsPerSecond, 1)} pairs/s (${compared.rawSql.pairs} pairs, ${compared.rawSql.failures} failures); ${fmt(raw.statements, 1)} SQL statements per pair; ${fmt(raw.loopMs, 1)} ms of its event loop per pair (renters included)`,
        );
        console.log(
          `  the same SQL behind a bare node:http server: ${fmt(bare.pairsPerSecond, 1)} pairs/s (${compared.rawHttp.pairs} pairs, ${compared.rawHttp.failures} failures); ${fmt(bare.loopMs, 1)} ms of its event loop per pair`,
        );
        console.log(
          `  app at ${share(rs.pairsPerSecond, raw.pairsPerSecond)} of raw SQL (${fmt(rs.statements, 1)} vs ${fmt(raw.statements, 1)} statements per pair); raw SQL behind node:http at ${share(bare.pairsPerSecond, raw.pairsPerSecond)}; app at ${share(rs.pairsPerSecond, bare.pairsPerSecond)} of raw SQL behind node:http`,
        );
        // CPU time, not waiting time: what a pair costs whatever else the machine runs.
        const total = (run: ReturnType<typeof perPair>) => run.threadCpuMs + run.postgresCpuMs;
        if (total(rs) > 0) {
          console.log(
            `  CPU per pair: app ${cpu(rs)}; raw SQL ${cpu(raw)} (renters included); behind node:http ${cpu(bare)}; raw SQL costs ${share(total(raw), total(rs))} of the app's`,
          );
        }
        if (compared.rawSql.failures + compared.rawHttp.failures > 0) process.exitCode = 1;
      }
      console.log(
        `  invariants${compared ? ' (after all three)' : ''}: ${problems.length === 0 ? 'all hold' : problems.join('; ')}`,
      );
      if (problems.length > 0) process.exitCode = 1;
    }
    if (url && runs('processes')) {
      // One server process, then two, on this database (scripts/bench/processes.ts).
      const page = await rentablePage(base);
      const name = new URL(url).pathname.slice(1);
      const ok = await benchProcesses({
        databaseUrl: url,
        cookies: async () => sessionCookies(await benchRenters(database)),
        rent: (bases, cookies, seconds) =>
          httpRenters(bases, cookies, page, seconds, reportReady(app.deps.hosts)),
        postgresCpu: () => {
          const before = cpuSnapshot(name);
          return () => backendsCpuMs(before, cpuSnapshot(name));
        },
        processCpuMs: (pid) => procCpuMs(`/proc/${pid}/stat`),
        seconds: DURATION_S,
        rounds: RENT_ROUNDS,
        fmt,
      });
      const problems = await checkInvariants(database.db);
      console.log(`  invariants: ${problems.length === 0 ? 'all hold' : problems.join('; ')}`);
      if (!ok || problems.length > 0) process.exitCode = 1;
    }
    if (label === 'PostgreSQL' && runs('heartbeats')) {
      await seedHosts(database);
      console.log(
        `heartbeats: ${fmt(HOSTS)} hosts every 30 s (${fmt(HEARTBEATS_PER_S)}/s), ${DURATION_S}s each`,
      );
      const eluBefore = performance.eventLoopUtilization();
      const alone = heartbeatLoad(base);
      await new Promise((resolve) => setTimeout(resolve, DURATION_S * 1000));
      const hbAlone = await alone.stop();
      const busyMs = performance.eventLoopUtilization(eluBefore).active;
      console.log(
        `  alone           ${fmt(hbAlone.perSecond)} /s  p50 ${fmt(hbAlone.p50, 1)} ms  p99 ${fmt(hbAlone.p99, 1)} ms  (${hbAlone.failures} failures); ${fmt(busyMs / Math.max(1, hbAlone.answered), 2)} ms of the server's event loop per heartbeat`,
      );
      const withRents = heartbeatLoad(base);
      const runLoaded = await rentAndStop(base, database, app.deps.hosts, await rentablePage(base));
      if (runLoaded.firstFailure) console.log(`  first failure: ${runLoaded.firstFailure}`);
      const rsLoaded = perPair(runLoaded);
      const hbRents = await withRents.stop();
      console.log(
        `  + rent-then-stop ${fmt(hbRents.perSecond)} /s  p50 ${fmt(hbRents.p50, 1)} ms  p99 ${fmt(hbRents.p99, 1)} ms  (${hbRents.failures} failures)`,
      );
      console.log(
        `  rent-then-stop under heartbeats: ${fmt(rsLoaded.pairsPerSecond, 1)} pairs/s${rentAlone ? ` (${fmt((rsLoaded.pairsPerSecond / rentAlone) * 100, 1)}% of without)` : ''}`,
      );
      const withListings = heartbeatLoad(base);
      const listingsLoaded = await cannon(`${base}/api/gpu-listings`);
      const hbListings = await withListings.stop();
      console.log(
        `  + listings      ${fmt(hbListings.perSecond)} /s  p50 ${fmt(hbListings.p50, 1)} ms  p99 ${fmt(hbListings.p99, 1)} ms; /api/gpu-listings ${fmt(listingsLoaded.rps)} req/s p99 ${listingsLoaded.p99} ms under heartbeats`,
      );
      const hbProblems = await checkInvariants(database.db);
      console.log(`  invariants: ${hbProblems.length === 0 ? 'all hold' : hbProblems.join('; ')}`);
      if (hbProblems.length > 0 || hbAlone.failures + hbRents.failures + hbListings.failures > 0) {
        process.exitCode = 1;
      }
    }
    if (runs('metered')) {
      const mm = await meteredMinute(database, app.deps.instances);
      console.log(`metered-minute job (${fmt(METERED)} running metered instances)`);
      console.log(
        `  one minute charged in ${fmt(mm.ms)} ms (${fmt(mm.charged)} instance-minutes, ${fmt((mm.charged / mm.ms) * 1000)} per s)`,
      );
      console.log(
        `  invariants: ${mm.problems.length === 0 ? 'all hold' : mm.problems.slice(0, 5).join('; ')}`,
      );
      if (mm.problems.length > 0) process.exitCode = 1;
    }
  } finally {
    await app.close();
  }
}

/** The event log's triggers (server/db/migrations/0037_events.sql), off for part rent-events. */
const DISABLE_EVENT_TRIGGERS = `alter table instances disable trigger instances_events_insert,
    disable trigger instances_events_update;
  alter table ledger_entries disable trigger ledger_entries_events;
  alter table hosts disable trigger hosts_events`;

/**
 * Part `rent-events` (PostgreSQL): what writing the event log costs rent-then-stop. Two fresh
 * databases seeded alike, the event triggers disabled on one; an app on each (its dispatcher
 * started, as everywhere); the same pairs against each in RENT_ROUNDS alternating rounds
 * (which goes first alternates too), so load from elsewhere falls on both. Per pair: the
 * server's thread CPU and its database's backends' CPU, and the statements it sent (the
 * dispatcher's reads of the log included: they are part of the cost).
 */
async function rentEvents(url: string): Promise<void> {
  const env = parseEnv({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://bench.example',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
  });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const sides: {
    label: string;
    name: string;
    database: Database;
    app: Awaited<ReturnType<typeof createApp>> | null;
    run: PairRun;
  }[] = [];
  try {
    for (const off of [true, false]) {
      const name = `rentgpu_bench_${off ? 'events_off' : 'events_on'}_${process.pid}`;
      await admin.query(`create database ${name}`);
      const database = await openDatabase({
        kind: 'postgres',
        url: databaseUrl(url, name),
        poolSize: POOL_SIZE,
      });
      const side = {
        label: off ? 'events off' : 'events on',
        name,
        database,
        app: null,
        run: noPairs,
      };
      sides.push(side);
      await database.migrate();
      await seed(database);
      await database.db.execute(sql`vacuum analyze gpu_listings, providers`);
      if (off) await database.db.execute(sql.raw(DISABLE_EVENT_TRIGGERS));
    }
    const slice = DURATION_S / RENT_ROUNDS;
    const ready: { base: string; cookies: string[]; page: ListingPage }[] = [];
    for (const side of sides) {
      const app = await createApp({
        env,
        database: side.database,
        logger: false,
        webDir: null,
        mailer: silentMailer,
      });
      side.app = app;
      const base = await listenLocal(app);
      ready.push({
        base,
        cookies: sessionCookies(await benchRenters(side.database)),
        page: await rentablePage(base),
      });
    }
    for (let round = 0; round < RENT_ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const side = sides[i];
        const load = ready[i];
        if (!side?.app || !load) continue;
        const hosts = side.app.deps.hosts;
        side.run = addRuns(
          side.run,
          await measured(
            slice,
            () => httpRenters(load.base, load.cookies, load.page, slice, reportReady(hosts)),
            side.name,
          ),
        );
      }
    }
    console.log(
      `rent-then-stop with the event log's triggers off and on (${RENT_WORKERS} concurrent renters, ${DURATION_S}s each, in ${RENT_ROUNDS} alternating rounds; two fresh databases seeded alike)`,
    );
    console.log(
      `  ${'side'.padEnd(12)} ${'pairs/s'.padStart(9)} ${'pairs'.padStart(7)} ${'fail'.padStart(5)} ${'CPU ms/pair: server thread + PostgreSQL = total'.padStart(48)} ${'statements/pair'.padStart(16)} ${'events/pair'.padStart(12)}`,
    );
    const figures = [];
    for (const side of sides) {
      const pp = perPair(side.run);
      const counted = await side.database.db.execute(sql`select count(*)::int as n from events`);
      const [events] = (counted as unknown as { rows: { n: number }[] }).rows;
      // The ledger's invariants count its events: the side without triggers has none to count.
      const problems = side.label === 'events on' ? await checkInvariants(side.database.db) : [];
      figures.push(pp);
      if (side.run.firstFailure)
        console.log(`  ${side.label} first failure: ${side.run.firstFailure}`);
      console.log(
        `  ${side.label.padEnd(12)} ${fmt(pp.pairsPerSecond, 1).padStart(9)} ${String(side.run.pairs).padStart(7)} ${String(side.run.failures).padStart(5)} ${`${fmt(pp.threadCpuMs, 2)} + ${fmt(pp.postgresCpuMs, 2)} = ${fmt(pp.threadCpuMs + pp.postgresCpuMs, 2)}`.padStart(48)} ${fmt(pp.statements, 1).padStart(16)} ${fmt((events?.n ?? 0) / Math.max(1, side.run.pairs), 2).padStart(12)}${problems.length === 0 ? '' : `  invariants: ${problems.slice(0, 3).join('; ')}`}`,
      );
    }
    const [off, on] = figures;
    if (off && on) {
      const ratio = (a: number, b: number) => fmt(a / Math.max(b, Number.EPSILON), 3);
      console.log(
        `  ${'on / off'.padEnd(12)} ${ratio(on.pairsPerSecond, off.pairsPerSecond).padStart(9)} ${''.padStart(13)} ${`${ratio(on.threadCpuMs, off.threadCpuMs)}   ${ratio(on.postgresCpuMs, off.postgresCpuMs)}   ${ratio(on.threadCpuMs + on.postgresCpuMs, off.threadCpuMs + off.postgresCpuMs)}`.padStart(48)} ${ratio(on.statements, off.statements).padStart(16)}`,
      );
    }
  } finally {
    for (const side of sides) {
      await side.app?.close();
      await side.database.close();
      await admin.query(`drop database if exists ${side.name} with (force)`);
    }
    await admin.end();
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_EMBEDDED !== '1' && !onlyOwnDatabaseParts) {
    const embedded = await openDatabase({ kind: 'pglite' });
    await benchOn('embedded PGlite', embedded);
    await embedded.close();
  }

  if (runs('keypair')) await benchKeyPair(fmt);
  if (runs('db-client')) await benchDbClient(fmt);
  if (runs('page-slots')) benchPageSlots(fmt);
  const url = parseEnv().DATABASE_URL;
  if (!url) {
    console.log('\n(DATABASE_URL is not set: skipping PostgreSQL)');
    return;
  }
  if (runs('rent-events')) await rentEvents(url);
  const webhookOptions = {
    adminUrl: url,
    poolSize: POOL_SIZE,
    seconds: DURATION_S,
    seed: async (database: Database) => {
      await seed(database);
      await database.db.execute(sql`vacuum analyze gpu_listings, providers`);
    },
    fmt,
  };
  if (runs('webhooks')) await benchWebhookDeliveries(webhookOptions);
  if (runs('webhooks-dead')) await benchDeadEndpoint(webhookOptions);
  if (onlyOwnDatabaseParts) return;
  const scratch = `rentgpu_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const target = databaseUrl(url, scratch);
  const database = await openDatabase({
    kind: 'postgres',
    url: target,
    poolSize: POOL_SIZE,
  });
  try {
    await benchOn('PostgreSQL', database, target);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
