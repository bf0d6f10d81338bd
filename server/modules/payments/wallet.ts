import type {
  ChargeLimitsView,
  HistoryFilter,
  SpendingSummary,
} from '../../../shared/contracts/payments';
import { microsToDollars, preciseDollars } from '../../../shared/rules/money';
import { startOfMonthIn } from '../../../shared/rules/time';
import type { Conn, Db } from '../../db/client';
import { ledgerService } from '../ledger/service';
import { spendCapsService } from '../spend-caps/service';
import { usersService } from '../users/service';
import { type HistoryQuery, historyCsv, historyMinutes, historyPage, TYPES } from './history';
import { TOP_UP_KINDS } from './service';

/** The user's wallet movements, one per ledger entry, newest first (the account export). */
export async function walletHistory(conn: Conn, userId: string, limit = 100) {
  const rows = await ledgerService.walletEntries(conn, userId, limit);
  return rows.map((row) => ({
    id: row.id.toString(),
    type: TYPES[row.kind] ?? (row.amountMicros < 0n ? 'charge' : 'refund'),
    description: row.memo,
    amount: microsToDollars(row.amountMicros),
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Balance, and spending net of refunds: all time, and since the first of this month in the
 * user's time zone. Money held for an active rental counts as spent until it is refunded;
 * a month whose refunds exceed its charges shows 0.
 */
export async function spendingSummary(
  conn: Conn,
  userId: string,
  now: Date,
): Promise<SpendingSummary> {
  const { preferences } = await usersService.getSettings(conn, userId);
  const monthStart = startOfMonthIn(now, preferences.timezone);
  const [all, month, balance] = await Promise.all([
    ledgerService.walletSums(conn, userId, TOP_UP_KINDS),
    ledgerService.walletSums(conn, userId, TOP_UP_KINDS, { from: monthStart }),
    ledgerService.walletBalance(conn, userId),
  ]);
  const spent = (other: bigint) => (other < 0n ? -other : 0n);
  return {
    balance: microsToDollars(balance),
    thisMonth: microsToDollars(spent(month.other)),
    totalSpent: microsToDollars(spent(all.other)),
    totalPurchased: microsToDollars(all.topUps),
    monthStart: monthStart.toISOString(),
    timezone: preferences.timezone,
  };
}

/**
 * What a launch is set against (GET /api/payments/limits): the balance and the account's own
 * caps with what was spent in their periods now, as the server counts them when it charges.
 */
export async function chargeLimits(
  conn: Conn,
  userId: string,
  now: Date,
): Promise<ChargeLimitsView> {
  const [{ billing }, balance, spent] = await Promise.all([
    usersService.getSettings(conn, userId),
    ledgerService.walletBalance(conn, userId),
    spendCapsService.spent(conn, { userId, apiKeyId: null }, now),
  ]);
  const caps: ChargeLimitsView['caps'] = [];
  if (billing.dailySpendCap !== null)
    caps.push({ period: 'day', cap: billing.dailySpendCap, spent: spent.day });
  if (billing.monthlySpendCap !== null)
    caps.push({ period: 'month', cap: billing.monthlySpendCap, spent: spent.month });
  // Exact (to the micro-dollar): the guard must not admit what a rounded-up balance lacks.
  return { balance: preciseDollars(balance), caps };
}

/** The routes' wallet (app.deps.wallet): its balance, history and spending, the database bound. */
export function createWalletService(db: Db) {
  return {
    balance: (userId: string) => ledgerService.walletBalance(db, userId),
    history: (userId: string, query: HistoryQuery) => historyPage(db, userId, query),
    historyMinutes: (userId: string, query: { instanceId: number; day: string }) =>
      historyMinutes(db, userId, query),
    historyCsv: (userId: string, filter: HistoryFilter) => historyCsv(db, userId, filter),
    summary: (userId: string, now: Date) => spendingSummary(db, userId, now),
    limits: (userId: string, now: Date) => chargeLimits(db, userId, now),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
