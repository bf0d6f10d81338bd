import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../../db/client';
import { compiledSql } from '../../../db/compiled';
import { instances } from '../../../db/schema';
import {
  type PostingMarkers,
  type PostingOutcomeRow,
  type PreparedLines,
  type PreparedPosting,
  postingCtes,
  postingOutcome,
  readPostingOutcome,
} from '../../ledger/service';
import {
  releaseUnitSql,
  reserveUnitSql,
  type TakenPool,
  type TakenPoolRow,
  takenPool,
} from '../../listings/service';
import { type Instance, type InstanceRow, instanceFromRow, postingValues } from '../repo-rows';

/** The booked plan's statements: a rent and a settlement, each one statement, and its due hours. */

const RENT_AT: PostingMarkers = {
  accounts: '$11',
  amounts: '$12',
  moveAccount: '$13',
  moveAmount: '$14',
};

/**
 * A rent in one statement: a unit taken at the quoted rate (listings' own reserve, with every
 * guard), the booked instance inserted, and its posting written with the wallet's move (the
 * ledger's own CTEs). No unit, no instance, no posting; a wallet that cannot pay is not
 * moved, and the caller rolls its transaction back. The memo is the one a rent has always
 * had: "Rental <id>: <hours> h of <model> held in escrow, storage add-on charged".
 */
const RENT_SQL = `with l as (
    ${reserveUnitSql({ id: '$1', rate: '$2', providerId: '$3', renterId: '$4', kind: "'vm'" })}
  ), i as (
    insert into instances (user_id, gpu_listing_id, provider_id, host_id, source, billing_plan,
      status, state_changed_at, duration_hours, hourly_rate_micros, booked_cost_micros,
      storage_fee_micros, start_time, ends_at, provisioning_deadline)
    select $4::uuid, l.id, l.provider_id, l.host_id, 'marketplace', 'booked', 'provisioning',
      $8::timestamptz, $5::int, $2::bigint, $6::bigint, $7::bigint, $8::timestamptz,
      $9::timestamptz, $10::timestamptz
    from l
    returning *
  ), ${postingCtes(
    `select 'rental_start', 'Rental ' || i.id || ': ' || $5::int || ' h of ' || l.model
      || ' held in escrow, storage add-on charged', null::text, 'rental:' || i.id from i, l`,
    RENT_AT,
  )}
  select i.*, l.model as listing_model, l.location as listing_location,
    l.is_demo_host as listing_is_demo_host, l.company_name as listing_company_name,
    l.pool_model, l.pool_host_id, l.pool_is_demo_host, l.pool_total_count,
    l.pool_host_gpu_indexes, l.pool_locked, ${postingOutcome(RENT_AT)}
  from i, l`;

type RentRow = Record<string, unknown> &
  PostingOutcomeRow &
  TakenPoolRow & {
    listing_model: string;
    listing_location: string;
    listing_is_demo_host: boolean;
    listing_company_name: string;
  };

const rentStatement = compiledSql<RentRow>('instances_rent', RENT_SQL);

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
 */
const settleStatement = compiledSql<Record<string, unknown> & PostingOutcomeRow>(
  'instances_settle_booked',
  `with i as (
    update instances set generation = generation + 1, status = $10, state_changed_at = $11::timestamptz,
      provisioning_progress = null, end_time = $12::timestamptz, used_seconds = $13::int,
      used_cost_micros = $14::bigint, refund_micros = $15::bigint,
      platform_fee_micros = $16::bigint, end_reason = $17
    where id = $18::int and status = any($19::text[])
    returning *
  ), r as (
    ${releaseUnitSql('$1', '$2::boolean and exists (select 1 from i)')}
    returning gpu_listings.id
  ), ${postingCtes('select $3::text, $4::text, $20::text, $5::text from i left join r on true', SETTLE_AT)}
  select i.*, ${postingOutcome(SETTLE_AT)} from i`,
);

export const bookedSql = {
  /**
   * Rents a unit of a listing on the booked plan in one statement (rentStatement). Null when
   * the unit could not be taken (nothing written); `posted.moved` false when the wallet could
   * not pay (the caller must roll back).
   */
  async rentBooked(
    conn: Conn,
    rent: {
      listingId: number;
      rateMicros: bigint;
      providerId: number;
      userId: string;
      hours: number;
      bookedMicros: bigint;
      storageFeeMicros: bigint;
      at: Date;
      endsAt: Date;
      provisioningDeadline: Date;
      /** The wallet's line and the system accounts' (one cached balance moves). */
      posting: PreparedLines;
    },
  ): Promise<{
    row: InstanceRow;
    posted: ReturnType<typeof readPostingOutcome>;
    /** The listing's GPU pool, its lock taken by the statement (gpuBinding.assign). */
    pool: TakenPool;
  } | null> {
    if (rent.posting.after.length > 0) throw new Error('a rent moves one cached balance');
    const [row] = await rentStatement(conn, [
      rent.listingId,
      String(rent.rateMicros),
      rent.providerId,
      rent.userId,
      rent.hours,
      String(rent.bookedMicros),
      String(rent.storageFeeMicros),
      rent.at.toISOString(),
      rent.endsAt.toISOString(),
      rent.provisioningDeadline.toISOString(),
      ...postingValues(rent.posting),
    ]);
    if (!row) return null;
    return {
      row: {
        instance: instanceFromRow(row),
        listing: {
          model: row.listing_model,
          location: row.listing_location,
          isDemoHost: row.listing_is_demo_host,
        },
        provider: { companyName: row.listing_company_name },
      },
      posted: readPostingOutcome(row, rent.posting.inline !== null),
      pool: takenPool(rent.listingId, row),
    };
  },

  /**
   * Ends a booked instance with its settlement in one statement (settleStatement). Null when
   * it was no longer in a live state (nothing written).
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
    },
  ): Promise<{ instance: Instance; posted: ReturnType<typeof readPostingOutcome> } | null> {
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
