import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../../db/client';
import { compiledSql } from '../../../db/compiled';
import { instances } from '../../../db/schema';
import { postingValues } from '../../ledger/posting-sql';
import {
  type PostingMarkers,
  type PostingOutcomeRow,
  type PreparedPosting,
  postingCtes,
  postingOutcome,
  readPostingOutcome,
} from '../../ledger/service';
import { releaseUnitSql } from '../../listings/service';
import { type Instance, instanceFromRow } from '../repo-rows';

/** The booked plan's statements: a settlement in one statement, its due hours, its ready. */

const SETTLE_AT: PostingMarkers = {
  accounts: '$6',
  amounts: '$7',
  moveAccount: '$8',
  moveAmount: '$9',
};

/**
 * A booked instance's settlement in one statement, its row locked by the caller: the
 * instance ended (only from a live state), its unit back when it held one, and the posting
 * with at most one cached balance moved. The unit goes back before the posting moves a
 * balance, the order every rent keeps (listing, then account).
 *
 * `c` moves a second cached balance up ($22, $23: a settlement without the row's lock, whose
 * wallet and provider both receive; never down): after `b`, whose count it reads, so the two
 * accounts are locked in the order they are given — the lower id first, as `moveAfter` and
 * every posting that moves two balances lock them, so that none can deadlock with another.
 */
const settleStatement = compiledSql<Record<string, unknown> & PostingOutcomeRow>(
  'instances_settle_booked',
  `with i as (
    update instances set generation = generation + 1, status = $10, state_changed_at = $11::timestamptz,
      provisioning_progress = null, end_time = $12::timestamptz, used_seconds = $13::int,
      used_cost_micros = $14::bigint, refund_micros = $15::bigint,
      platform_fee_micros = $16::bigint, end_reason = $17
    where id = $18::int and status = any($19::text[])
      and ($21::int is null or (generation = $21::int
        and unreachable_since is not distinct from $24::timestamptz
        and unreachable_seconds = $25::int))
    returning *
  ), r as (
    ${releaseUnitSql('$1', '$2::boolean and exists (select 1 from i)')}
    returning gpu_listings.id
  ), ${postingCtes('select $3::text, $4::text, $20::text, $5::text from i left join r on true', SETTLE_AT)},
  c as (
    update ledger_accounts a set balance_micros = a.balance_micros + $23::bigint
    where a.id = $22::int and $23::bigint >= 0 and a.tracks_balance and exists (select 1 from t)
      and (select count(*) from b) >= 0
    returning a.id
  )
  select i.*, ${postingOutcome(SETTLE_AT)} from i`,
);

export const bookedSql = {
  /**
   * Ends a booked instance with its settlement in one statement (settleStatement). Null when
   * it was no longer in a live state, or no longer at `generation` (nothing written).
   */
  async settleBooked(
    conn: Conn,
    settle: {
      id: number;
      listingId: number;
      releaseUnit: boolean;
      to: InstanceState;
      at: Date;
      changes: {
        endTime: Date;
        usedSeconds: number;
        usedCostMicros: bigint;
        refundMicros: bigint;
        platformFeeMicros: bigint;
        endReason: string;
      };
      from: readonly InstanceState[];
      posting: PreparedPosting;
      /**
       * Only on the row as the caller read it (a settlement without the row's lock): at its
       * generation, and with its host's dark time unchanged (an outage opens and closes without
       * a new generation, and the settlement refunds it); null: any.
       */
      asRead: Pick<Instance, 'generation' | 'unreachableSince' | 'unreachableSeconds'> | null;
      /** A second cached balance moved up in the statement, after `posting.inline`'s. */
      second?: { accountId: number; amountMicros: bigint } | null;
    },
  ): Promise<{
    instance: Instance;
    posted: ReturnType<typeof readPostingOutcome>;
  } | null> {
    const { changes, posting } = settle;
    const [row] = await settleStatement(conn, [
      settle.listingId,
      settle.releaseUnit,
      posting.head.kind,
      posting.head.memo,
      posting.head.reference,
      ...postingValues(posting),
      settle.to,
      settle.at.toISOString(),
      changes.endTime.toISOString(),
      changes.usedSeconds,
      String(changes.usedCostMicros),
      String(changes.refundMicros),
      String(changes.platformFeeMicros),
      changes.endReason,
      settle.id,
      settle.from,
      posting.head.idempotencyKey,
      settle.asRead?.generation ?? null,
      settle.second?.accountId ?? null,
      settle.second ? String(settle.second.amountMicros) : null,
      settle.asRead?.unreachableSince?.toISOString() ?? null,
      settle.asRead?.unreachableSeconds ?? null,
    ]);
    if (!row) return null;
    return {
      instance: instanceFromRow(row),
      posted: readPostingOutcome(row, posting.inline !== null),
    };
  },

  /** Booked instances whose hours have run out; rows another worker holds are skipped. */
  claimExpired(conn: Conn, now: Date, limit: number) {
    return conn
      .select()
      .from(instances)
      .where(
        and(
          eq(instances.billingPlan, 'booked'),
          isNull(instances.endTime),
          lte(instances.endsAt, now),
        ),
      )
      .orderBy(instances.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Its booked hours begin when it is ready (issue 39): they end that many hours later. */
  async beginHours(conn: Conn, id: number, at: Date) {
    const rows = await conn
      .update(instances)
      .set({
        endsAt: sql`${at.toISOString()}::timestamptz + ${instances.durationHours} * interval '1 hour'`,
      })
      .where(eq(instances.id, id))
      .returning();
    return rows[0] ?? null;
  },
};
