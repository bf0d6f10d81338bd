/**
 * The raw-SQL anchor for rent-then-stop (`npm run bench`, PostgreSQL only): the same pair the
 * app serves — a rent with its ledger posting, the host's ready report with the alert's
 * address, a stop with its settlement — written by hand as SQL and sent through `pg` with no
 * HTTP, no Fastify and no Drizzle, on the same tables with the same guards:
 *
 * - rent (one statement, so one transaction): the session names the renter; a unit is taken
 *   only from an available listing on a host that can run it, at the rate the renter was
 *   shown, of the provider named, never a sandbox listing of someone else; the instance is
 *   inserted; the wallet pays booked hours plus the storage add-on into escrow and platform
 *   revenue as one balanced ledger transaction. A wallet that cannot pay fails the
 *   statement on the database's CHECK (wallet never below zero), so nothing is written.
 * - ready (one statement): only a provisioning instance at the reported generation, before
 *   its deadline; it returns what the ready alert reads (the renter's address and settings).
 * - stop (one transaction): the instance row locked FOR UPDATE, the session's user its
 *   owner; a booked instance that may still be terminated is settled by the same rules
 *   (shared/rules/pricing.ts): its unit back, one balanced ledger transaction (used cost to
 *   the provider less the fee, the rest back to the wallet; a full refund when it was never
 *   ready), cached balances moved in account id order, the instance ended. Stopping twice
 *   settles once: a second stop finds it ended and changes nothing.
 *
 * The server's pricing and lifecycle rules are plain functions from shared/, used here as
 * they are: the anchor measures the database work, not another copy of the rules.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  canAct,
  holdsUnit,
  type InstanceState,
  LIVE_STATES,
  stateAfter,
} from '../../shared/rules/instance-lifecycle';
import { dollarsToMicros, microsToDollars } from '../../shared/rules/money';
import {
  bookedCostMicros,
  STORAGE_ADDON_MICROS,
  sameDollars,
  splitEarnings,
  usedCostMicros,
} from '../../shared/rules/pricing';

export interface RawListing {
  id: number;
  providerId: number;
  hourlyRate: string;
}

export interface RawOptions {
  url: string;
  /** Connections, as many as the app's pool. */
  poolSize: number;
  platformFeeBps: number;
  provisioningTimeoutMs: number;
}

/** The hosts a listing's unit can run on (server/modules/listings/repo.ts hostCanRun). */
const HOST_CAN_RUN = `(case when g.host_id is null then g.is_demo_host
  else exists (select 1 from hosts h where h.id = g.host_id and h.removed_at is null
    and h.offline_since is null and h.last_heartbeat_at is not null) end)`;

const RENT = `with s as (
    select s.user_id from sessions s where s.token_hash = $1 and s.expires_at > $9::timestamptz
  ), l as (
    update gpu_listings g set available_count = g.available_count - 1,
      status = case when g.available_count - 1 = 0 then 'rented' else g.status end
    where g.id = $2 and g.status = 'available' and g.available_count > 0 and g.removed_at is null
      and ${HOST_CAN_RUN}
      and g.hourly_rate_micros = $3::bigint and g.provider_id = $4
      and exists (select 1 from s)
      and not exists (select 1 from providers p where p.id = g.provider_id and p.is_sandbox
        and p.user_id is distinct from (select user_id from s))
    returning g.id, g.provider_id, g.model, g.location, g.is_demo_host,
      coalesce(g.host_id, case when g.is_demo_host then 'demo' end) as host_id,
      (select company_name from providers p where p.id = g.provider_id) as company_name
  ), i as (
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, state_changed_at, duration_hours, hourly_rate_micros, booked_cost_micros,
      storage_fee_micros, start_time, ends_at, provisioning_deadline)
    select s.user_id, l.id, l.provider_id, l.host_id, 'marketplace', 'booked', 'provisioning',
      $9::timestamptz, $5::int, $3::bigint, $6::bigint, $7::bigint, $9::timestamptz,
      $9::timestamptz + make_interval(hours => $5::int),
      $9::timestamptz + make_interval(secs => $8::int / 1000.0)
    from s, l
    returning id, user_id
  ), w as (
    update ledger_accounts a set balance_micros = a.balance_micros - ($6::bigint + $7::bigint)
    from i where a.kind = 'wallet' and a.user_id = i.user_id and a.tracks_balance
    returning a.id
  ), t as (
    insert into ledger_transactions (kind, memo, reference)
    select 'rental_start', 'Rental ' || i.id || ': ' || $5::int || ' h of ' || l.model
      || ' held in escrow, storage add-on charged', 'rental:' || i.id
    from i, l
    returning id
  ), e as (
    insert into ledger_entries (transaction_id, account_id, amount_micros)
    select t.id, v.account_id, v.amount from t, (values
      ((select id from w), -($6::bigint + $7::bigint)),
      ($10::int, $6::bigint),
      ($11::int, $7::bigint)) as v(account_id, amount)
  )
  select i.id, l.model, l.location, l.is_demo_host, l.company_name from i, l`;

const READY = `update instances i set generation = i.generation + 1, status = 'running',
    state_changed_at = $3::timestamptz, ready_at = $3::timestamptz,
    ssh_host = coalesce($4::text, i.ssh_host), provisioning_progress = null,
    ssh_host_key = null, ssh_host_key_fingerprint = null
  from users u
  where i.id = $1 and i.status = 'provisioning' and i.generation = $2 and i.ready_at is null
    and i.provisioning_deadline > $3::timestamptz and u.id = i.user_id
  returning i.id, i.generation, i.billing_plan, u.email, u.settings`;

const LOCK = `select i.id, i.user_id, i.gpu_listing_id, i.provider_id, i.host_id, i.billing_plan,
    i.status, i.duration_hours, i.hourly_rate_micros::text, i.booked_cost_micros::text,
    i.storage_fee_micros::text, i.start_time, i.ends_at, i.ready_at, i.unreachable_since,
    i.unreachable_seconds, g.model, g.location, p.company_name,
    (select id from ledger_accounts a where a.kind = 'wallet' and a.user_id = i.user_id) as wallet_id,
    (select id from ledger_accounts a where a.kind = 'provider_earnings'
      and a.provider_id = i.provider_id) as earnings_id
  from instances i
  join sessions s on s.token_hash = $2 and s.expires_at > $3::timestamptz and s.user_id = i.user_id
  join gpu_listings g on g.id = i.gpu_listing_id
  join providers p on p.id = i.provider_id
  where i.id = $1
  for update of i`;

const EARNINGS_ACCOUNT = `with n as (
    insert into ledger_accounts (kind, provider_id, tracks_balance) values ('provider_earnings', $1, true)
    on conflict do nothing returning id
  )
  select id from n union all
  select id from ledger_accounts where kind = 'provider_earnings' and provider_id = $1`;

const EARNINGS_ACCOUNT_FOUND = `select id from ledger_accounts
  where kind = 'provider_earnings' and provider_id = $1`;

/**
 * The settlement's writes in one statement: the unit back (when held), the ledger
 * transaction and its entries, at most one cached balance moved, the instance ended.
 */
const SETTLE = `with r as (
    update gpu_listings set available_count = least(available_count + 1, total_count),
      status = case when status = 'rented' then 'available' else status end
    where id = $1 and $2::boolean
  ), t as (
    insert into ledger_transactions (kind, memo, reference) values ($3, $4, $5) returning id
  ), e as (
    insert into ledger_entries (transaction_id, account_id, amount_micros)
    select t.id, v.account_id, v.amount from t, unnest($6::int[], $7::bigint[]) as v(account_id, amount)
  ), b as (
    update ledger_accounts a set balance_micros = a.balance_micros + $9::bigint
    where a.id = $8::int and a.tracks_balance
    returning a.id
  ), i as (
    update instances set generation = generation + 1, status = $10, state_changed_at = $11::timestamptz,
      end_time = $12::timestamptz, used_seconds = $13::int, used_cost_micros = $14::bigint,
      refund_micros = $15::bigint, platform_fee_micros = $16::bigint, end_reason = 'user',
      provisioning_progress = null
    where id = $17 and status = any($18::text[])
    returning id
  )
  select (select count(*)::int from i) as ended, (select count(*)::int from b) as moved`;

const MOVE = `update ledger_accounts set balance_micros = balance_micros + $2::bigint
  where id = $1 and tracks_balance returning id`;

interface Line {
  accountId: number;
  amount: bigint;
  tracked: boolean;
}

/** One line per account, zero lines dropped (as server/modules/ledger/service.ts posts). */
function merged(lines: Line[]): Line[] {
  const by = new Map<number, Line>();
  for (const line of lines) {
    const seen = by.get(line.accountId);
    by.set(line.accountId, { ...line, amount: (seen?.amount ?? 0n) + line.amount });
  }
  return [...by.values()].filter((line) => line.amount !== 0n);
}

interface Locked {
  id: number;
  user_id: string;
  gpu_listing_id: number;
  provider_id: number;
  host_id: string | null;
  billing_plan: string;
  status: InstanceState;
  duration_hours: number | null;
  hourly_rate_micros: string;
  booked_cost_micros: string;
  storage_fee_micros: string;
  start_time: Date;
  ends_at: Date | null;
  ready_at: Date | null;
  unreachable_since: Date | null;
  unreachable_seconds: number;
  wallet_id: number | null;
  earnings_id: number | null;
}

class Refused extends Error {}

/** The three steps of a pair as hand-written SQL on a pool of its own; `close` ends the pool. */
export async function createRawPairs(
  options: Omit<RawOptions, 'renters' | 'listings' | 'seconds'>,
) {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize });
  pool.on('error', () => {});
  const system = async (kind: string) => {
    const { rows } = await pool.query<{ id: number }>(
      `select id from ledger_accounts where kind = $1 and user_id is null and provider_id is null`,
      [kind],
    );
    if (!rows[0]) throw new Error(`no ${kind} account`);
    return rows[0].id;
  };
  const escrowId = await system('escrow');
  const platformId = await system('platform_revenue');

  async function rent(tokenHash: string, listing: RawListing, hours: number): Promise<number> {
    const rate = dollarsToMicros(listing.hourlyRate);
    const booked = bookedCostMicros(rate, hours);
    // The client's total is checked against the server's quote (here: the same sum).
    if (!sameDollars((Number(listing.hourlyRate) * hours).toFixed(2), microsToDollars(booked)))
      throw new Refused('quote mismatch');
    const now = new Date();
    const { rows } = await pool.query<{ id: number }>({
      name: 'raw_rent',
      text: RENT,
      values: [
        tokenHash,
        listing.id,
        String(rate),
        listing.providerId,
        hours,
        String(booked),
        String(STORAGE_ADDON_MICROS),
        options.provisioningTimeoutMs,
        now.toISOString(),
        escrowId,
        platformId,
      ],
    });
    const row = rows[0];
    if (!row) throw new Refused('listing not rentable or not signed in');
    return row.id;
  }

  async function ready(id: number): Promise<void> {
    const { rows } = await pool.query({
      name: 'raw_ready',
      text: READY,
      values: [id, 1, new Date().toISOString(), 'bench'],
    });
    if (rows.length !== 1) throw new Refused(`instance ${id} not made ready`);
  }

  async function stop(tokenHash: string, id: number): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const now = new Date();
      const { rows } = await client.query<Locked>({
        name: 'raw_lock',
        text: LOCK,
        values: [id, tokenHash, now.toISOString()],
      });
      const row = rows[0];
      if (row?.billing_plan !== 'booked') throw new Refused(`rental ${id} not found`);
      if (canAct(row.status, 'terminate')) await settle(client, row, now);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async function settle(client: pg.PoolClient, row: Locked, now: Date): Promise<void> {
    if (row.wallet_id === null) throw new Error(`user ${row.user_id} has no wallet`);
    const booked = BigInt(row.booked_cost_micros);
    const storage = BigInt(row.storage_fee_micros);
    const reference = `rental:${row.id}`;
    let kind: string;
    let memo: string;
    let lines: Line[];
    let end = now;
    let usedSeconds = 0;
    let used = 0n;
    let fee = 0n;
    let refund: bigint;
    if (row.ready_at === null) {
      kind = 'rental_cancel';
      memo = `Full refund: rental ${row.id} cancelled (user)`;
      refund = booked + storage;
      lines = [
        { accountId: escrowId, amount: -booked, tracked: false },
        { accountId: platformId, amount: -storage, tracked: false },
        { accountId: row.wallet_id, amount: refund, tracked: true },
      ];
    } else {
      const endsAt = row.ends_at ?? now;
      end = now < endsAt ? now : endsAt;
      const open =
        row.unreachable_since !== null && row.unreachable_since < end
          ? Math.floor((end.getTime() - row.unreachable_since.getTime()) / 1000)
          : 0;
      const unreachable = row.unreachable_seconds + open;
      usedSeconds = Math.max(
        0,
        Math.floor((end.getTime() - row.start_time.getTime()) / 1000) - unreachable,
      );
      used = usedCostMicros(BigInt(row.hourly_rate_micros), usedSeconds, row.duration_hours ?? 0);
      const split = splitEarnings(used, options.platformFeeBps);
      fee = split.feeMicros;
      refund = booked - used;
      let earningsId = row.earnings_id;
      if (earningsId === null) {
        const created = await client.query<{ id: number }>(EARNINGS_ACCOUNT, [row.provider_id]);
        // Another stop may have created it after this statement's snapshot was taken: the
        // insert then finds the conflict and the select cannot see that row. A new
        // statement (a new snapshot, read committed) does, as ledgerRepo's second read.
        const found =
          created.rows[0] ??
          (await client.query<{ id: number }>(EARNINGS_ACCOUNT_FOUND, [row.provider_id])).rows[0];
        earningsId = found?.id ?? null;
        if (earningsId === null) throw new Error(`no earnings account for ${row.provider_id}`);
      }
      kind = 'rental_settle';
      memo = `Rental ${row.id}: ${usedSeconds} s used${unreachable > 0 ? `, ${unreachable} s unreachable refunded` : ''} (user)`;
      lines = [
        { accountId: escrowId, amount: -booked, tracked: false },
        { accountId: earningsId, amount: split.providerMicros, tracked: true },
        { accountId: platformId, amount: fee, tracked: false },
        { accountId: row.wallet_id, amount: refund, tracked: true },
      ];
    }
    const posted = merged(lines);
    const tracked = posted.filter((line) => line.tracked).sort((a, b) => a.accountId - b.accountId);
    // With one cached balance to move it moves in the same statement; with two (provider and
    // wallet) each moves in its own, in account id order, so stops cannot deadlock.
    const inline = tracked.length === 1 ? tracked[0] : undefined;
    const { rows } = await client.query<{ ended: number; moved: number }>({
      name: 'raw_settle',
      text: SETTLE,
      values: [
        row.gpu_listing_id,
        holdsUnit(row.status),
        kind,
        memo,
        reference,
        posted.map((line) => line.accountId),
        posted.map((line) => String(line.amount)),
        inline?.accountId ?? null,
        inline ? String(inline.amount) : null,
        stateAfter('terminate', row.host_id !== null),
        now.toISOString(),
        end.toISOString(),
        usedSeconds,
        String(used),
        String(refund),
        String(fee),
        row.id,
        LIVE_STATES,
      ],
    });
    if (rows[0]?.ended !== 1) throw new Error(`instance ${row.id} changed under its lock`);
    if (inline && rows[0]?.moved !== 1) throw new Error(`account ${inline.accountId} not moved`);
    if (!inline) {
      for (const line of tracked) {
        const moved = await client.query({
          name: 'raw_move',
          text: MOVE,
          values: [line.accountId, String(line.amount)],
        });
        if (moved.rowCount !== 1) throw new Error(`account ${line.accountId} not moved`);
      }
    }
  }

  return { rent, ready, stop, close: () => pool.end() };
}

export type RawPairs = Awaited<ReturnType<typeof createRawPairs>>;

/**
 * Renters in this thread, each its own loop of pairs (rent, ready, stop) for `seconds`, the
 * listings taken in the order scripts/bench/rent-load.mjs takes them.
 */
export async function rawRenters(
  raw: RawPairs,
  tokens: string[],
  listings: RawListing[],
  seconds: number,
  hashToken: (token: string) => string,
) {
  let pairs = 0;
  let failures = 0;
  let firstFailure: string | null = null;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    tokens.map(async (token, worker) => {
      for (let i = 0; Date.now() < until; i += 1) {
        const listing = listings[(worker * 7 + i) % listings.length];
        if (!listing) break;
        try {
          // The token is hashed per request, as the app's session lookup does.
          const id = await raw.rent(hashToken(token), listing, 2);
          await raw.ready(id);
          await raw.stop(hashToken(token), id);
          pairs += 1;
        } catch (error) {
          failures += 1;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  return { pairs, failures, firstFailure };
}

/**
 * The same SQL behind a bare node:http server (no framework): POST /api/rentals and
 * PATCH /api/rentals/:id/stop as rent-load.mjs sends them, the session from the cookie, a
 * small JSON answer. What HTTP alone costs on this machine.
 */
export async function rawHttpServer(raw: RawPairs, hashToken: (token: string) => string) {
  const server = http.createServer((request, response) => {
    const token = /(?:^|;\s*)rentgpu_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? '';
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        response.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
      };
      const failed = (error: unknown) =>
        answer(error instanceof Refused ? 404 : 500, { error: String(error) });
      const stop = /^\/api\/rentals\/(\d+)\/stop$/.exec(request.url ?? '');
      if (request.method === 'POST' && request.url === '/api/rentals') {
        let body: { gpuListingId: number; providerId: number; hourlyRate: string };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          answer(400, { error: 'not JSON' });
          return;
        }
        const listing = {
          id: body.gpuListingId,
          providerId: body.providerId,
          hourlyRate: body.hourlyRate,
        };
        raw.rent(hashToken(token), listing, 2).then((id) => answer(201, { id }), failed);
      } else if (request.method === 'PATCH' && stop) {
        const id = Number(stop[1]);
        raw.stop(hashToken(token), id).then(() => answer(200, { id }), failed);
      } else {
        answer(404, { error: 'no such route' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
