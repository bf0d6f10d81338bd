/**
 * A ledger posting as SQL text, for a statement that writes it beside the change causing it
 * in one round trip (the ledger's own single-move posting in ./repo.ts, a rent or settlement
 * in server/modules/instances/plans/booked-sql.ts).
 */

/** Where a posting's values sit in a statement that writes it (`$n` markers). */
export interface PostingMarkers {
  /** Account ids (int[]) and amounts (bigint[]) of its lines, in the same order. */
  accounts: string;
  amounts: string;
  /** The one cached balance it moves and by how much (both null: none). */
  moveAccount: string;
  moveAmount: string;
}

/**
 * A posting as common table expressions, for a statement that writes it beside the change
 * that causes it (a rent, a settlement: server/modules/instances/plans/booked-sql.ts): `t` its
 * transaction, from `head` (a VALUES or SELECT of kind, memo, idempotency key, reference;
 * no row, no posting), `e` its entries, `b` the move of at most one cached balance. Nothing
 * is written or moved when the idempotency key was used before; a wallet that cannot cover
 * its line is not moved. The statement's select reads the outcome with `postingOutcome`.
 */
export function postingCtes(head: string, at: PostingMarkers, lines?: number): string {
  // With `lines` (the statement's text is then for postings of that many lines), the planner
  // knows how many rows the arrays hold without their values: see spend-caps/repo.ts.
  const entries = `unnest(${at.accounts}::int[], ${at.amounts}::bigint[])`;
  const bounded = lines === undefined ? entries : `(select * from ${entries} limit ${lines})`;
  return `t as (
    insert into ledger_transactions (kind, memo, idempotency_key, reference)
    ${head}
    on conflict do nothing
    returning id
  ), e as (
    insert into ledger_entries (transaction_id, account_id, amount_micros)
    select t.id, v.account_id, v.amount from t, ${bounded} as v(account_id, amount)
    returning transaction_id
  ), b as (
    update ledger_accounts a set balance_micros = a.balance_micros + ${at.moveAmount}::bigint
    where a.id = ${at.moveAccount}::int and a.tracks_balance and exists (select 1 from t)
      and (a.kind <> 'wallet' or a.balance_micros + ${at.moveAmount}::bigint >= 0)
    returning a.id
  )`;
}

/** The columns that tell what `postingCtes` did (read them with `readPostingOutcome`). */
export function postingOutcome(at: PostingMarkers): string {
  return `(select id::text from t) as posted_id, (select count(*)::int from b) as posted_moved,
    (select tracks_balance from ledger_accounts where id = ${at.moveAccount}::int) as posted_tracks,
    (select balance_micros::text from ledger_accounts where id = ${at.moveAccount}::int) as posted_balance`;
}

export interface PostingOutcomeRow {
  posted_id: string | null;
  posted_moved: number;
  posted_tracks: boolean | null;
  posted_balance: string | null;
}

/**
 * `id` null when nothing was written (the idempotency key was used before, or the head gave
 * no row); `moved` false when the account tracks a balance it cannot cover (a wallet), and
 * then `balance` is what it holds.
 */
export function readPostingOutcome(row: PostingOutcomeRow, moves: boolean) {
  return {
    id: row.posted_id === null ? null : BigInt(row.posted_id),
    moved: !moves || row.posted_moved === 1 || row.posted_tracks !== true,
    balance: BigInt(row.posted_balance ?? '0'),
  };
}

/** A prepared posting's lines as a hand-written statement's parameters (postingCtes). */
export const postingValues = (posting: {
  lines: { accountId: number; amountMicros: bigint }[];
  inline: { accountId: number; amountMicros: bigint } | null;
}) => [
  posting.lines.map((line) => line.accountId),
  posting.lines.map((line) => String(line.amountMicros)),
  posting.inline?.accountId ?? null,
  posting.inline ? String(posting.inline.amountMicros) : null,
];
