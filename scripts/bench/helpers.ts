/**
 * What several benches share: the PostgreSQL server the standalone ones use, a statement on
 * its admin database, the app of a bench that times the worker, a limiter with a quota no bench reaches, and the bench users' money and
 * metered instances written in bulk.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApp } from '../../server/app';
import type { Database, Db } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import type { ManualClock } from '../../server/lib/clock';
import type { Mailer } from '../../server/lib/mailer';
import { MemoryRateLimiter, type RateLimiter } from '../../server/lib/rate-limit';

/** PostgreSQL's server for a standalone bench: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one. */
export const benchServerUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

/** Instance alerts (ready e-mails) are sent after commit; a bench does not print them. */
export const silentMailer: Mailer = { send: async () => {}, close: () => {} };

/** The app listening on a free port of 127.0.0.1: its base URL. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The URL of the database `name` on the PostgreSQL server at `base`. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the server at `base` on a connection of its own (create or drop a database). */
export async function adminStatement(base: string, statement: string) {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The app on `database` at `clock`'s time, for a bench that times its worker: no demo data,
 * no logs, no web app, the limiter in memory.
 */
export function workerBenchApp(database: Database, clock: ManualClock) {
  return createApp({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO_DATA: 'false' }),
    database,
    clock,
    limiter: new MemoryRateLimiter(clock),
    logger: false,
    webDir: null,
  });
}

/** The real limiter's work per request, with a quota the benchmark cannot reach. */
export class UnboundedLimiter implements RateLimiter {
  constructor(private readonly inner: RateLimiter) {}
  hit(key: string, _limit: number, windowMs: number) {
    return this.inner.hit(key, Number.MAX_SAFE_INTEGER, windowMs);
  }
  giveBack(key: string) {
    return this.inner.giveBack(key);
  }
  close() {
    return this.inner.close();
  }
}

/**
 * A wallet of $100,000 for each of the `users` bench users `<prefix>-<n>@bench.test`, granted
 * from promotions in one ledger transaction.
 */
export async function fundBenchUsers(db: Db, prefix: string, users: number) {
  const emails = `${prefix}-%@bench.test`;
  await db.execute(sql`
    insert into ledger_accounts (kind, user_id, balance_micros, tracks_balance)
    select 'wallet', id, 100000000000, true from users where email like ${emails}`);
  await db.execute(sql`
    with t as (insert into ledger_transactions (kind, memo) values ('grant', 'bench credits') returning id)
    insert into ledger_entries (transaction_id, account_id, amount_micros)
    select t.id, a.id, a.balance_micros from t, ledger_accounts a
      join users u on u.id = a.user_id and u.email like ${emails}
    union all
    select t.id, (select id from ledger_accounts where kind = 'promotions' and user_id is null),
      -100000000000 * ${users}::bigint from t`);
}

/**
 * `count` running metered instances of `users` funded bench users (`metered-<n>@bench.test`),
 * spread over the available listings with more than ten GPUs free, each paid through `at`:
 * one pass of the metered-minute job at `at` + k minutes charges each of them.
 */
export async function seedMeteredInstances(
  db: Db,
  { count, users, at }: { count: number; users: number; at: Date },
) {
  await db.execute(sql`
    insert into users (email, first_name, last_name)
    select 'metered-' || g || '@bench.test', 'Bench', 'User' from generate_series(1, ${users}::int) g`);
  await fundBenchUsers(db, 'metered', users);
  const iso = at.toISOString();
  await db.execute(sql`
    with u as (select id, row_number() over (order by id) - 1 as n from users where email like 'metered-%@bench.test'),
      l as (select id, provider_id, hourly_rate_micros, row_number() over (order by id) - 1 as n
        from gpu_listings where status = 'available' and available_count > 10),
      c as (select count(*) as cnt from l)
    insert into instances (user_id, gpu_listing_id, provider_id, source, billing_plan, status,
      hourly_rate_micros, storage_gb, start_time, provisioning_deadline, ready_at, paid_through)
    select u.id, l.id, l.provider_id, 'vm', 'metered', 'running', l.hourly_rate_micros, 50,
      ${iso}::timestamptz, ${iso}::timestamptz, ${iso}::timestamptz, ${iso}::timestamptz
    from generate_series(0, ${count - 1}::int) g, c
    join l on true join u on true
    where l.n = g % c.cnt and u.n = g % ${users}::int`);
  await db.execute(sql`
    update gpu_listings g set available_count = available_count - h.n
    from (select gpu_listing_id, count(*)::int as n from instances
      where billing_plan = 'metered' group by gpu_listing_id) h
    where h.gpu_listing_id = g.id`);
}

/**
 * BENCH_PLANS=1: how PostgreSQL planned each named statement on the pool's connections
 * (`pg_prepared_statements`, per connection: generic plans made once, custom plans made for
 * each execution's values). A statement planned for its values every time pays its planning on
 * every request. Every connection is asked at once, each holding its own until all have
 * answered (`pg_sleep`), so each of the `connections` answers once.
 */
export async function printPreparedPlans(db: Db, connections: number, fmt: (n: number) => string) {
  const rows = await Promise.all(
    Array.from({ length: connections }, () =>
      db.execute(
        sql`select pg_backend_pid() as pid, s.name, s.generic_plans::int as generic, s.custom_plans::int as custom
          from pg_sleep(0.3) left join pg_prepared_statements s on true`,
      ),
    ),
  );
  const seen = new Set<number>();
  const byName = new Map<string, { generic: number; custom: number; connections: number }>();
  for (const result of rows) {
    const list = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const pid = Number(list[0]?.pid);
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const r of list) {
      if (r.name === null || r.name === undefined) continue;
      const name = String(r.name);
      const was = byName.get(name) ?? { generic: 0, custom: 0, connections: 0 };
      byName.set(name, {
        generic: was.generic + Number(r.generic),
        custom: was.custom + Number(r.custom),
        connections: was.connections + 1,
      });
    }
  }
  console.log(
    `named statements on ${seen.size} connections (BENCH_PLANS=1): plans made for the values, plans made once`,
  );
  for (const [name, n] of [...byName].sort((a, b) => b[1].custom - a[1].custom)) {
    console.log(
      `  ${fmt(n.custom).padStart(8)} ${fmt(n.generic).padStart(6)}  ${name} (${n.connections} connections)`,
    );
  }
}
