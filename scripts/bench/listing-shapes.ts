/**
 * The marketplace with the read cache off, one query shape at a time: every search text,
 * filter, sort and page a renter (GET /api/gpu-listings) or an API client
 * (GET /api/v1/gpu-listings) can ask for reaches the database. Used by scripts/bench/run.ts
 * (part `shapes`); with BENCH_EXPLAIN=1 on PostgreSQL it also prints each shape's plan
 * (EXPLAIN (ANALYZE, BUFFERS) of each statement the server sent). Each shape's line ends with
 * its CPU per request, of the server's thread and of PostgreSQL's backends (scripts/bench/cpu.ts):
 * steadier than req/s on a machine whose speed swings.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import type { Env } from '../../server/env';
import { systemClock } from '../../server/lib/clock';
import type { Mailer } from '../../server/lib/mailer';
import { MemoryRateLimiter } from '../../server/lib/rate-limit';
import { apiKeysService } from '../../server/modules/api-keys/service';
import { encodeCursor } from '../../server/modules/listings/cursor';
import { createUser } from '../../server/seed/factories';
import { sampleAllocations } from './allocations';
import { cpuProfiler } from './cpu';
import { printPreparedPlans, UnboundedLimiter } from './helpers';
import { type RecordedStatement, rawStatementsServer } from './raw-statements';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered. */
  requests: number;
}

/** Statements this process sends while `recording` is set (the plans are asked of them). */
const recorded: RecordedStatement[] = [];
let recording = false;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    const [first, second] = args as [unknown, unknown];
    if (typeof first === 'string') recorded.push({ text: first, values: (second as []) ?? [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[]; name?: string };
      recorded.push({
        text: q.text,
        values: (second as unknown[] | undefined) ?? q.values ?? [],
        ...(q.name ? { name: q.name } : {}),
      });
    }
  }
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof sendQuery;

/** The rows of db.execute's answer (the same shape on node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

interface Shape {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

/** The key of the listing at `fraction` of the marketplace in a sort's order, as a cursor. */
async function cursorAt(
  database: Database,
  sort: { column: string; descending: boolean },
  fraction: number,
): Promise<string> {
  const column = sql.raw(sort.column);
  const direction = sql.raw(sort.descending ? 'desc' : 'asc');
  const visible = sql`l.removed_at is null and l.status in ('available', 'rented')
    and l.provider_id in (select id from providers where not is_sandbox)`;
  const result = await database.db.execute(sql`
    select ${column}::text as value, l.id from gpu_listings l where ${visible}
    order by ${column} ${direction}, l.id
    offset (select floor(count(*) * ${fraction}::float8)::int from gpu_listings l where ${visible}) limit 1`);
  const row = rowsOf<{ value: string; id: number }>(result)[0];
  if (!row) throw new Error(`no listing at ${fraction} of ${sort.column}`);
  return encodeCursor({ value: row.value, id: Number(row.id) });
}

async function shapesFor(database: Database, apiKey: string): Promise<Shape[]> {
  const own = rowsOf<{ id: number; company_name: string }>(
    await database.db.execute(
      sql`select id, company_name from providers where not is_sandbox order by id offset 16 limit 1`,
    ),
  )[0];
  if (!own) throw new Error('no provider to list');
  const deep = {
    id: await cursorAt(database, { column: 'l.id', descending: false }, 0.9),
    priceAsc: await cursorAt(database, { column: 'l.hourly_rate_micros', descending: false }, 0.9),
    priceDesc: await cursorAt(database, { column: 'l.hourly_rate_micros', descending: true }, 0.9),
    memory: await cursorAt(database, { column: 'l.memory_gb', descending: true }, 0.9),
    performance: await cursorAt(database, { column: 'l.performance_score', descending: true }, 0.5),
  };
  const q = (params: Record<string, string>) => `/api/gpu-listings?${new URLSearchParams(params)}`;
  return [
    { name: 'first page', path: '/api/gpu-listings' },
    { name: 'search: model', path: q({ model: 'rtx 4090' }) },
    { name: 'search: location', path: q({ model: 'city 42' }) },
    { name: 'search: provider name', path: q({ model: own.company_name.toUpperCase() }) },
    { name: 'search: no match', path: q({ model: 'no such gpu' }) },
    { name: 'type: A100', path: q({ gpuType: 'A100' }) },
    { name: 'type: RTX 4080 (none listed)', path: q({ gpuType: 'RTX 4080' }) },
    // The marketplace page sends a chosen type as its search text too.
    { name: 'type as the page asks: H100', path: q({ model: 'H100', gpuType: 'H100' }) },
    { name: 'sort: price-asc', path: q({ sort: 'price-asc' }) },
    { name: 'sort: price-desc', path: q({ sort: 'price-desc' }) },
    { name: 'sort: memory', path: q({ sort: 'memory' }) },
    { name: 'sort: performance', path: q({ sort: 'performance' }) },
    { name: 'sort: gpu-price-asc', path: q({ sort: 'gpu-price-asc' }) },
    // Issue 42's filters, as the marketplace's filter bar sends them.
    {
      name: 'filters: 1 GPU, 40+ GB, <= $30',
      path: q({ gpuCount: '1', minVramGb: '40', maxGpuHourPrice: '30', sort: 'gpu-price-asc' }),
    },
    { name: 'deep page (90%)', path: q({ cursor: deep.id }) },
    { name: 'deep page price-asc', path: q({ sort: 'price-asc', cursor: deep.priceAsc }) },
    { name: 'deep page price-desc', path: q({ sort: 'price-desc', cursor: deep.priceDesc }) },
    { name: 'deep page memory', path: q({ sort: 'memory', cursor: deep.memory }) },
    {
      name: 'deep page performance (mid-tie)',
      path: q({ sort: 'performance', cursor: deep.performance }),
    },
    {
      name: 'search+type+sort',
      path: q({ model: 'city 1', gpuType: 'H100', sort: 'price-desc' }),
    },
    {
      name: "provider's own (100)",
      path: q({ providerId: String(own.id), limit: '100' }),
    },
    {
      name: 'public API type+sort',
      path: `/api/v1/gpu-listings?${new URLSearchParams({ gpuType: 'H100', sort: 'price-asc' })}`,
      headers: { authorization: `Bearer ${apiKey}` },
    },
    {
      name: 'public API search',
      path: `/api/v1/gpu-listings?${new URLSearchParams({ model: own.company_name })}`,
      headers: { authorization: `Bearer ${apiKey}` },
    },
  ];
}

/** The lines of a plan that say how it ran: nodes, conditions, rows removed, buffers, times. */
function trimPlan(lines: string[]): string[] {
  const keep =
    /(->|^\s*(Limit|Sort|Nested|Merge|Hash|Index|Bitmap|Seq|Incremental|Result|Append|Unique)|Index Cond|Recheck Cond|Filter|Rows Removed|Sort Key|Sort Method|Heap Blocks|Buffers: shared|Execution Time|Planning Time)/;
  return lines.filter((line) => keep.test(line));
}

/**
 * The plan of a statement as a warm server connection runs it: the statement runs five times
 * first on the same connection (a fresh connection's first run reads the catalogue, which
 * took most of an EXPLAIN's time and is not what a pooled connection pays).
 */
async function explain(url: string, statement: { text: string; values: unknown[] }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let run = 0; run < 5; run++) await client.query(statement.text, statement.values);
    const plan = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${statement.text}`,
      statement.values,
    );
    return plan.rows.map((r) => r['QUERY PLAN']);
  } finally {
    await client.end();
  }
}

/**
 * Each shape on a server with READ_CACHE_TTL_MS=0, and the bare node:http ceiling for the
 * first page's bytes. `postgresUrl`: where the plans are asked for (BENCH_EXPLAIN=1).
 */
export async function benchShapes(options: {
  env: Env;
  database: Database;
  mailer: Mailer;
  postgresUrl: string | null;
  /** The app's PostgreSQL connections (BENCH_PLANS=1 asks each how it planned). */
  poolSize: number;
  /** The load on a URL, with the CPU per request of the server's thread and its backends. */
  cannonWithCpu: (
    url: string,
    headers?: Record<string, string>,
  ) => Promise<{ figures: Figures; cpu: string }>;
  bare: (body: Buffer, contentType: string) => Promise<Figures>;
  fmt: (n: number, digits?: number) => string;
}): Promise<void> {
  const { env, database, mailer, cannonWithCpu, fmt } = options;
  const user = await database.db.transaction((tx) => createUser(tx, { credits: '10.00' }));
  const { key } = await database.db.transaction((tx) =>
    apiKeysService.create(tx, user.id, { name: 'bench', permissions: ['read'] }, new Date()),
  );
  const app = await createApp({
    env: { ...env, READ_CACHE_TTL_MS: 0 },
    database,
    logger: false,
    webDir: null,
    mailer,
    limiter: new UnboundedLimiter(new MemoryRateLimiter(systemClock)),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const explainPlans = options.postgresUrl !== null && process.env.BENCH_EXPLAIN === '1';
  const only = process.env.BENCH_SHAPES?.split(',');
  const rawShapes = process.env.BENCH_RAW_SHAPES === '1';
  const profiler = await cpuProfiler();
  try {
    const shapes = await shapesFor(database, key);
    // A first round of load, not counted: the pool's connections, their named statements and
    // the server's JIT are warm before the first shape is measured (the first page, measured
    // cold, read half the rate of the sorts measured after it).
    await cannonWithCpu(`${base}/api/gpu-listings`);
    console.log(
      'read cache off (READ_CACHE_TTL_MS=0), one query shape at a time; each right after a bare node:http server answering its bytes',
    );
    for (const shape of shapes) {
      if (only && !only.some((name) => shape.name.includes(name))) continue;
      // The third ask is what the load meets: a text asked often is written into a statement of
      // its own (server/modules/listings/page-statements.ts, askedOften).
      for (let ask = 0; ask < 2; ask++) {
        await (await fetch(base + shape.path, { headers: shape.headers ?? {} })).arrayBuffer();
      }
      recording = true;
      recorded.length = 0;
      const sample = await fetch(base + shape.path, { headers: shape.headers ?? {} });
      recording = false;
      if (!sample.ok) throw new Error(`${shape.path}: ${sample.status} ${await sample.text()}`);
      const bytes = Buffer.from(await sample.arrayBuffer());
      const body = JSON.parse(bytes.toString('utf8')) as unknown[] | { gpus: unknown[] };
      const rows = Array.isArray(body) ? body.length : body.gpus.length;
      const ceiling = await options.bare(bytes, sample.headers.get('content-type') ?? '');
      const allocations = process.env.BENCH_ALLOC === '1' ? await sampleAllocations() : null;
      // BENCH_PROFILE: the server thread's CPU profile of the shape's load (the load runs in a worker).
      await profiler?.start();
      const { figures: ours, cpu } = await cannonWithCpu(base + shape.path, shape.headers);
      await profiler?.stop(`shape-${shape.name.replace(/[^a-z0-9]+/gi, '-')}`);
      const allocated = await allocations?.stop(ours.requests);
      console.log(
        `  ${shape.name.padEnd(32)} ${fmt(ours.rps).padStart(6)} req/s  p50 ${fmt(ours.p50).padStart(4)} ms  p99 ${fmt(ours.p99).padStart(5)} ms  | bare ${fmt(ceiling.rps).padStart(6)} req/s p99 ${fmt(ceiling.p99)} ms: ${fmt((ours.rps / ceiling.rps) * 100, 1)}%  (${rows} rows)  | CPU per request: ${cpu}`,
      );
      for (const line of allocated ?? []) console.log(`      ${line}`);
      if (rawShapes && options.postgresUrl) {
        // The same statements behind a bare node:http server (raw-statements.ts).
        const sent = [...recorded];
        const raw = await rawStatementsServer(
          options.postgresUrl,
          options.poolSize,
          sent,
          bytes,
          sample.headers.get('content-type') ?? '',
        );
        try {
          const { figures, cpu: rawCpu } = await cannonWithCpu(raw.url);
          console.log(
            `      raw SQL (its ${sent.length} statement${sent.length === 1 ? '' : 's'} behind node:http) ${fmt(figures.rps)} req/s  p50 ${fmt(figures.p50)} ms  p99 ${fmt(figures.p99)} ms  | the app at ${fmt((ours.rps / figures.rps) * 100, 1)}% of it  | CPU per request: ${rawCpu}`,
          );
        } finally {
          await raw.close();
        }
      }
      if (explainPlans && options.postgresUrl) {
        // Every statement of the page that reads the listings (a free-text page is two).
        const statements = recorded.filter((s) => /from "?gpu_listings"?\s/.test(s.text));
        for (const statement of statements) {
          for (const line of trimPlan(await explain(options.postgresUrl, statement)))
            console.log(`      ${line}`);
        }
      }
    }
    if (process.env.BENCH_PLANS === '1' && options.postgresUrl)
      await printPreparedPlans(database.db, options.poolSize, fmt);
  } finally {
    profiler?.close();
    await app.close();
  }
}
