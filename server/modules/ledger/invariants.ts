import { sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';

/**
 * The invariants of DESIGN.md section 3, checked against the whole database. Returns a
 * description of each violation; an empty list means the books are right.
 */
export async function checkInvariants(conn: Conn): Promise<string[]> {
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
  for (const r of await rows(sql`
    select l.id, l.available_count, l.total_count, count(r.id)::int as active
    from gpu_listings l left join rentals r on r.gpu_listing_id = l.id and r.status = 'active'
    group by l.id
    having l.available_count < 0 or l.available_count > l.total_count
       or l.available_count <> l.total_count - count(r.id)`)) {
    problems.push(
      `listing ${r.id}: available ${r.available_count} of ${r.total_count} with ${r.active} active rentals`,
    );
  }
  const [escrow] = await rows(sql`
    select
      coalesce((select sum(e.amount_micros) from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.kind = 'escrow'), 0)::text as held,
      coalesce((select sum(booked_cost_micros) from rentals where status = 'active'), 0)::text as booked`);
  if (escrow && escrow.held !== escrow.booked) {
    problems.push(`escrow holds ${escrow.held} but active rentals booked ${escrow.booked}`);
  }
  return problems;
}
