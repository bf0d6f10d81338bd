import { eq, inArray } from 'drizzle-orm';
import type {
  HistoryFilter,
  HistoryMinute,
  HistoryPage,
  UsageSummary,
  WalletEntry,
  WalletEntryType,
} from '../../../shared/contracts/payments';
import { csvText } from '../../../shared/rules/csv';
import { computeMinuteMicros, storageMinuteMicros } from '../../../shared/rules/metering';
import { microsToDollars, preciseDollars } from '../../../shared/rules/money';
import type { Conn } from '../../db/client';
import { gpuListings, instances } from '../../db/schema';
import type { HistoryLineRow } from '../ledger/history-sql';
import { ledgerService } from '../ledger/service';
import { usersService } from '../users/service';
import { TOP_UP_KINDS } from './service';

export const TYPES: Record<string, WalletEntryType> = {
  paypal_purchase: 'purchase',
  purchase_bonus: 'bonus',
  grant: 'credit',
};

export interface HistoryQuery {
  type: HistoryFilter;
  cursor?: string | undefined;
  limit: number;
}

/**
 * Dollars as the history shows them: to the cent, or with as many decimals as it takes when
 * the amount is under half a cent, so money that moved never reads "0.00".
 */
export function historyDollars(micros: bigint): string {
  const abs = micros < 0n ? -micros : micros;
  return abs > 0n && abs < 5_000n ? preciseDollars(micros) : microsToDollars(micros);
}

interface MeteredInstance {
  id: number;
  gpu: string;
  hourlyRateMicros: bigint;
  storageGb: number;
}

const instanceIdOf = (reference: string | null) => {
  const match = /^instance:(\d+)$/.exec(reference ?? '');
  return match ? Number(match[1]) : null;
};

async function meteredInstances(conn: Conn, ids: number[]): Promise<Map<number, MeteredInstance>> {
  if (ids.length === 0) return new Map();
  const rows = await conn
    .select({
      id: instances.id,
      gpu: gpuListings.model,
      hourlyRateMicros: instances.hourlyRateMicros,
      storageGb: instances.storageGb,
    })
    .from(instances)
    .innerJoin(gpuListings, eq(gpuListings.id, instances.gpuListingId))
    .where(inArray(instances.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A usage line's split: compute minutes at the instance's rate, the rest storage. */
function usageOf(row: HistoryLineRow, instance: MeteredInstance, day: string): UsageSummary {
  const charged = -row.amountMicros;
  const computeMicros =
    BigInt(row.computePostings) * computeMinuteMicros(instance.hourlyRateMicros);
  const storageMicros = charged - computeMicros;
  const perStorageMinute = storageMinuteMicros(instance.storageGb);
  return {
    instanceId: instance.id,
    gpu: instance.gpu,
    day,
    computeMinutes: row.computePostings,
    storageMinutes: perStorageMinute > 0n ? Number(storageMicros / perStorageMinute) : 0,
    computeAmount: historyDollars(computeMicros),
    storageAmount: historyDollars(storageMicros),
    postings: row.postings,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function present(row: HistoryLineRow, known: Map<number, MeteredInstance>): WalletEntry {
  const instanceId = instanceIdOf(row.reference);
  const instance = instanceId === null ? undefined : known.get(instanceId);
  const usage = row.day !== null && instance ? usageOf(row, instance, row.day) : null;
  return {
    id: usage ? `usage:${usage.instanceId}:${usage.day}` : `entry:${row.lastId}`,
    type: TYPES[row.kind] ?? (row.amountMicros < 0n ? 'charge' : 'refund'),
    description: usage
      ? `Instance ${usage.instanceId} (${usage.gpu}): ${plural(usage.computeMinutes, 'compute minute')}, ${plural(usage.storageMinutes, 'storage minute')}`
      : row.memo,
    amount: historyDollars(row.amountMicros),
    amountMicros: row.amountMicros.toString(),
    createdAt: row.lastAt.toISOString(),
    startedAt: row.firstAt.toISOString(),
    usage,
  };
}

async function lines(
  conn: Conn,
  userId: string,
  filter: HistoryFilter,
  page: { before: bigint | null; limit: number | null },
): Promise<{ rows: HistoryLineRow[]; entries: WalletEntry[] }> {
  const walletId = await ledgerService.walletId(conn, userId);
  if (walletId === null) return { rows: [], entries: [] };
  const { preferences } = await usersService.getSettings(conn, userId);
  const rows = await ledgerService.historyLines(conn, {
    walletId,
    timeZone: preferences.timezone,
    category: filter === 'all' ? null : filter,
    topUpKinds: TOP_UP_KINDS,
    ...page,
  });
  const ids = rows.filter((r) => r.day !== null).map((r) => instanceIdOf(r.reference));
  const known = await meteredInstances(
    conn,
    [...new Set(ids)].filter((id): id is number => id !== null),
  );
  return { rows, entries: rows.map((row) => present(row, known)) };
}

/** One page of the credit history, newest first, with the cursor of the next. */
export async function historyPage(
  conn: Conn,
  userId: string,
  query: HistoryQuery,
): Promise<HistoryPage> {
  const before = query.cursor === undefined ? null : BigInt(query.cursor);
  const { rows, entries } = await lines(conn, userId, query.type, {
    before,
    limit: query.limit + 1,
  });
  const more = rows.length > query.limit;
  return {
    entries: entries.slice(0, query.limit),
    nextCursor: more ? (rows[query.limit - 1]?.lastId.toString() ?? null) : null,
  };
}

/** The minute charges behind one usage line (an instance on a day), oldest first. */
export async function historyMinutes(
  conn: Conn,
  userId: string,
  query: { instanceId: number; day: string },
): Promise<{ minutes: HistoryMinute[] }> {
  const walletId = await ledgerService.walletId(conn, userId);
  if (walletId === null) return { minutes: [] };
  const { preferences } = await usersService.getSettings(conn, userId);
  const rows = await ledgerService.historyMinutes(conn, {
    walletId,
    timeZone: preferences.timezone,
    reference: `instance:${query.instanceId}`,
    day: query.day,
  });
  return {
    minutes: rows.map((r) => ({
      id: r.id,
      description: r.memo,
      amount: historyDollars(r.amountMicros),
      amountMicros: r.amountMicros.toString(),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

const CSV_COLUMNS = [
  'date',
  'first_movement',
  'type',
  'description',
  'instance_id',
  'gpu',
  'compute_minutes',
  'storage_minutes',
  'amount',
  'amount_exact',
  'currency',
] as const;

/**
 * The whole history (one filter) as CSV, newest first: `amount` to the cent as people read it,
 * `amount_exact` to the micro-dollar (what the ledger holds; the lines sum to the wallet's
 * entries); dates in ISO 8601 (UTC).
 */
export async function historyCsv(
  conn: Conn,
  userId: string,
  filter: HistoryFilter,
): Promise<string> {
  const { entries } = await lines(conn, userId, filter, { before: null, limit: null });
  return csvText([
    [...CSV_COLUMNS],
    ...entries.map((e) => [
      e.createdAt,
      e.startedAt,
      e.type,
      e.description,
      e.usage?.instanceId ?? '',
      e.usage?.gpu ?? '',
      e.usage?.computeMinutes ?? '',
      e.usage?.storageMinutes ?? '',
      microsToDollars(BigInt(e.amountMicros)),
      preciseDollars(BigInt(e.amountMicros)),
      'USD',
    ]),
  ]);
}
