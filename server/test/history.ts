import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { createListing, createProvider, createUser } from '../seed/factories';

/**
 * A database with a long past: `count` instances that ended long ago (half booked and
 * settled, half metered; a tenth failed; all let go by their hosts), and a tenth as many of
 * the other rows that pile up: closed demo accounts (with their wallets and sessions), hosts gone offline or removed with their
 * outages (short ones, never credited; long ones, credited; a removed host is never marked
 * offline), and Idempotency-Keys answered
 * today. Each table in one INSERT … SELECT from generate_series, then VACUUM ANALYZE. What the
 * worker's jobs must not read on every pass (docs/architecture.md, "The worker"): the
 * idle-cost test and scripts/bench/worker-idle.ts use it.
 */
export async function fillHistory(db: Db, count: number, now: Date): Promise<void> {
  const user = await db.transaction((tx) => createUser(tx, { credits: '100.00' }));
  const provider = await createProvider(db);
  const listing = await createListing(db, { providerId: provider.id, totalCount: 8 });
  const day = 86_400_000;
  const since = new Date(now.getTime() - 400 * day).toISOString();
  await db.execute(sql`
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, state_changed_at, duration_hours, hourly_rate_micros, booked_cost_micros,
      start_time, ends_at, provisioning_deadline, ready_at, end_time, paid_through,
      host_released_at, end_reason)
    select ${user.id}::uuid, ${listing.id}, ${provider.id}, 'demo',
      case when booked then 'marketplace' else 'api' end,
      case when booked then 'booked' else 'metered' end,
      case when n % 10 = 0 then 'failed' else 'terminated' end,
      t + interval '1 hour', case when booked then 1 end, 1500000,
      case when booked then 1500000 else 0 end,
      t, case when booked then t + interval '1 hour' end, t + interval '10 minutes',
      t + interval '1 minute', t + interval '1 hour',
      case when booked then null else t + interval '1 hour' end,
      t + interval '1 hour', 'user'
    from generate_series(1, ${count}::int) n,
      lateral (select n % 2 = 0 as booked,
        ${since}::timestamptz + (n * interval '1 second') as t) x`);
  const tenth = Math.max(1, Math.floor(count / 10));
  await db.execute(sql`
    insert into users (email, first_name, last_name, is_demo, created_at, updated_at, deleted_at)
    select 'history-' || n || '@demo.example.test', 'Demo', 'Visitor', true, t, t,
      t + interval '1 day'
    from generate_series(1, ${tenth}::int) n,
      lateral (select ${since}::timestamptz + (n * interval '1 minute') as t) x`);
  await db.execute(sql`
    insert into ledger_accounts (kind, user_id, tracks_balance)
    select 'wallet', id, true from users where email like 'history-%'`);
  await db.execute(sql`
    insert into sessions (token_hash, user_id, created_at, expires_at, last_seen_at)
    select 'history-' || id, id, created_at, created_at + interval '30 days', created_at
    from users where email like 'history-%'`);
  await db.execute(sql`
    insert into hosts (id, provider_id, name, enrolled_at, credential_hash, last_heartbeat_at,
      offline_since, removed_at)
    select 'history-host-' || n, ${provider.id}, 'gone-' || n, t, 'history-' || n,
      t + interval '1 day',
      case when n % 2 = 1 then t + interval '1 day' end,
      case when n % 2 = 0 then t + interval '1 day' end
    from generate_series(1, ${tenth}::int) n,
      lateral (select ${since}::timestamptz + (n * interval '1 minute') as t) x`);
  await db.execute(sql`
    insert into host_outages (host_id, started_at, ended_at, credited_at)
    select 'history-host-' || (1 + n % ${tenth}::int), t,
      t + case when n % 4 = 0 then interval '5 hours' else interval '10 minutes' end,
      case when n % 4 = 0 then t + interval '5 hours' end
    from generate_series(1, ${tenth}::int) n,
      lateral (select ${since}::timestamptz + (n * interval '1 minute') as t) x`);
  const today = now.toISOString();
  await db.execute(sql`
    insert into idempotency_keys (owner, method, route, key, request_hash, state, claim_token,
      claimed_at, response_status, response_body, created_at, completed_at, expires_at)
    select ${user.id}, 'POST', '/api/rentals', 'history-' || n, 'h', 'completed',
      gen_random_uuid(), ${today}::timestamptz, 201, '{}', ${today}::timestamptz,
      ${today}::timestamptz, ${today}::timestamptz + interval '1 day'
    from generate_series(1, ${tenth}::int) n`);
  // As old rows are: vacuumed (hint bits set, pages all-visible) and counted.
  await db.execute(sql`vacuum analyze`);
}
