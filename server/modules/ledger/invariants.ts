import { sql } from 'drizzle-orm';
import { UNIT_HOLDING_STATES } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { stateList } from '../../db/states';
import { minutePriceSql } from '../instances/plans/metered-sql';
import { planArray } from '../instances/plans/registry';

/**
 * The money invariants (docs/rules.md, Money), checked against the whole database. Returns a
 * description of each violation; an empty list means the books are right.
 */
export async function checkInvariants(
  conn: Conn,
  options: { billedUpTo?: Date } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => {
    const result = await conn.execute(query);
    return (result as unknown as { rows: Record<string, unknown>[] }).rows;
  };

  for (const r of await rows(sql`
    select transaction_id, sum(amount_micros)::text as total, count(*)::int as lines
    from ledger_entries group by transaction_id
    having sum(amount_micros) <> 0 or count(*) < 2`)) {
    problems.push(`transaction ${r.transaction_id} sums to ${r.total} over ${r.lines} entries`);
  }
  for (const r of await rows(sql`
    select a.id, a.kind, a.balance_micros::text as cached, coalesce(sum(e.amount_micros), 0)::text as entries
    from ledger_accounts a left join ledger_entries e on e.account_id = a.id
    where a.tracks_balance
    group by a.id having a.balance_micros <> coalesce(sum(e.amount_micros), 0)`)) {
    problems.push(
      `account ${r.id} (${r.kind}) caches ${r.cached} but its entries sum to ${r.entries}`,
    );
  }
  for (const r of await rows(
    sql`select id, balance_micros::text as b from ledger_accounts where kind = 'wallet' and balance_micros < 0`,
  )) {
    problems.push(`wallet ${r.id} is negative: ${r.b}`);
  }
  problems.push(...(await checkInstanceInvariants(conn, options)));
  problems.push(...(await checkEventLog(conn)));
  return problems;
}

/**
 * The event log against the changes it tells of (docs/decisions/027): every wallet's and
 * provider's earnings' events are one per ledger line and sum to the ledger; every subject's
 * events are numbered 1…its row's count with no gap; an instance's last state event names
 * its state. (A subject whose first events the 30-day retention deleted is not compared.)
 */
export async function checkEventLog(conn: Conn): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => {
    const result = await conn.execute(query);
    return (result as unknown as { rows: Record<string, unknown>[] }).rows;
  };
  for (const r of await rows(sql`
    select a.id, a.kind, a.event_seq, l.lines, l.total, e.n, e.told, e.first, e.last, e.total as told_total
    from ledger_accounts a
    cross join lateral (select count(*)::int as lines, coalesce(sum(amount_micros), 0)::text as total
      from ledger_entries where account_id = a.id) l
    cross join lateral (select count(*)::int as n, min(subject_seq)::int as first, max(subject_seq)::int as last,
        count(*) filter (where type <> 'wallet.low_balance')::int as told,
        coalesce(sum((data->>'amountMicros')::bigint), 0)::text as total
      from events where subject_kind = case a.kind when 'wallet' then 'wallet' else 'earnings' end
        and subject_id = coalesce(a.user_id::text, a.provider_id::text)) e
    left join providers p on p.id = a.provider_id
    where a.kind in ('wallet', 'provider_earnings') and (e.first is null or e.first = 1)
      and coalesce(a.user_id, p.user_id) is not null
      and (l.lines <> e.told or l.total <> e.total or e.n <> a.event_seq
        or coalesce(e.last, 0) <> a.event_seq)`)) {
    problems.push(
      `${r.kind} account ${r.id}: ${r.lines} ledger lines summing to ${r.total}, but ${r.told} events summing to ${r.told_total} (${r.n} events numbered ${r.first}…${r.last}, its count ${r.event_seq})`,
    );
  }
  for (const r of await rows(sql`
    select i.id, i.status, i.event_seq, e.n, e.first, e.last, s.state
    from instances i
    cross join lateral (select count(*)::int as n, min(subject_seq)::int as first, max(subject_seq)::int as last
      from events where subject_kind = 'instance' and subject_id = i.id::text) e
    left join lateral (select data->>'state' as state from events
      where subject_kind = 'instance' and subject_id = i.id::text
        and type not in ('instance.host_unreachable', 'instance.host_reachable', 'instance.idle_warning')
      order by subject_seq desc limit 1) s on true
    where (e.first is null or e.first = 1)
      and (e.n <> i.event_seq or coalesce(e.last, 0) <> i.event_seq or s.state is distinct from i.status)`)) {
    problems.push(
      `instance ${r.id} (${r.status}): ${r.n} events numbered ${r.first}…${r.last} (its count ${r.event_seq}), the last state told ${r.state}`,
    );
  }
  return problems;
}

/**
 * The instance invariants (docs/rules.md, Money and Hosts and instances; docs/decisions/007). With
 * `billedUpTo` (the moment the metered-minute job last ran), also: no metered instance runs
 * on a minute its wallet did not pay.
 */
export async function checkInstanceInvariants(
  conn: Conn,
  options: { billedUpTo?: Date } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => {
    const result = await conn.execute(query);
    return (result as unknown as { rows: Record<string, unknown>[] }).rows;
  };
  for (const r of await rows(sql`
    select l.id, l.available_count, l.total_count, count(i.id)::int as held
    from gpu_listings l
    left join instances i on i.gpu_listing_id = l.id
      and i.status in ${stateList(UNIT_HOLDING_STATES)}
    group by l.id
    having l.available_count < 0 or l.available_count > l.total_count
       or l.available_count <> l.total_count - count(i.id)`)) {
    problems.push(
      `listing ${r.id}: available ${r.available_count} of ${r.total_count} with ${r.held} instances holding a unit`,
    );
  }
  const [escrow] = await rows(sql`
    select
      coalesce((select sum(e.amount_micros) from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.kind = 'escrow'), 0)::text as held,
      coalesce((select sum(booked_cost_micros) from instances where billing_plan = any(${planArray((c) => c.escrowsUpFront)}::text[]) and end_time is null), 0)::text as booked`);
  if (escrow && escrow.held !== escrow.booked) {
    problems.push(
      `escrow holds ${escrow.held} but unsettled booked instances hold ${escrow.booked}`,
    );
  }
  // Each instance charged by the minute: its billed minutes × its per-minute prices (the one
  // price rule, shared/rules/metering.ts, in SQL: minutePriceSql), and exactly what its wallet
  // paid in metered_minute transactions.
  const computeMinute = minutePriceSql(sql`i.hourly_rate_micros`, sql`0`, sql`true`);
  const storageMinute = minutePriceSql(sql`0`, sql`i.storage_gb`, sql`false`);
  for (const r of await rows(sql`
    select i.id, i.charged_micros::text as charged,
      (i.compute_minutes * ${computeMinute}
        + i.storage_minutes * ${storageMinute})::bigint::text as expected,
      coalesce((select -sum(e.amount_micros) from ledger_transactions t
        join ledger_entries e on e.transaction_id = t.id
        join ledger_accounts a on a.id = e.account_id and a.kind = 'wallet'
        where t.reference = 'instance:' || i.id and t.kind = 'metered_minute'), 0)::text as paid
    from instances i where i.billing_plan = any(${planArray((c) => c.chargesPerMinute)}::text[])`)) {
    if (r.charged !== r.expected || r.charged !== r.paid) {
      problems.push(
        `metered instance ${r.id}: charged ${r.charged}, minutes × rates ${r.expected}, wallet paid ${r.paid}`,
      );
    }
  }
  if (options.billedUpTo) {
    for (const r of await rows(sql`
      select id, paid_through from instances
      where billing_plan = any(${planArray((c) => c.chargesPerMinute)}::text[]) and status = 'running'
        and paid_through <= ${options.billedUpTo.toISOString()}::timestamptz`)) {
      problems.push(
        `metered instance ${r.id} runs on an unpaid minute (paid through ${r.paid_through})`,
      );
    }
  }
  return problems;
}
