import { spendCapDollars } from '../../../shared/contracts/settings';
import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';
import {
  atWarning,
  periodStart,
  SPEND_PERIODS,
  type SpendPeriod,
  wouldCross,
} from '../../../shared/rules/spend-caps';
import type { Conn, Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { eventLog } from '../events/service';
import { ledgerService, type Posting, preparePosting, readPostingOutcome } from '../ledger/service';
import { type PeriodKey, type PeriodRow, spendCapsRepo } from './repo';

/** Who is charged: the account, and the API key that launched the instance (if any). */
export interface Spender {
  userId: string;
  apiKeyId: string | null;
}

/** A cap in force for one counter. */
interface Limit extends PeriodKey {
  capMicros: bigint;
}

/** A cap that a charge reached the 80% mark of (told to the renter once per period). */
export interface SpendWarning {
  userId: string;
  apiKeyId: string | null;
  period: SpendPeriod;
  cap: string;
  spent: string;
}

/** A cap that refused a charge: the scope whose running metered instances are stopped. */
export interface CapReached extends Spender {
  period: SpendPeriod;
}

const ACCOUNT = 'account';

/** 402 SPEND_CAP_REACHED (the error body of docs/rules.md, Errors): the cap, what was spent and the period. */
const spendCapReached = (
  capMicros: bigint,
  spentMicros: bigint,
  period: SpendPeriod,
  scope: 'account' | 'api_key',
) =>
  new AppError(
    402,
    'SPEND_CAP_REACHED',
    `This charge would go over your ${period === 'day' ? 'daily' : 'monthly'} spend cap${scope === 'api_key' ? ' for this API key' : ''}.`,
    { cap: microsToDollars(capMicros), spent: microsToDollars(spentMicros), period, scope },
  );

const keyOf = (k: PeriodKey) => `${k.userId}|${k.scope}|${k.period}|${k.startsAt.toISOString()}`;

function capMicros(dollars: string | null): bigint | null {
  if (dollars === null) return null;
  try {
    return dollarsToMicros(dollars);
  } catch {
    return null;
  }
}

/** A cap as the settings store it (validated as resolveSettings would); null when none. */
function storedCap(value: unknown): bigint | null {
  const parsed = spendCapDollars.safeParse(value);
  return parsed.success ? capMicros(parsed.data) : null;
}

/** The counters a charge of `spender` moves in the periods holding `now`. */
function countersOf(spender: Spender, now: Date): PeriodKey[] {
  const scopes = spender.apiKeyId ? [ACCOUNT, spender.apiKeyId] : [ACCOUNT];
  return scopes.flatMap((scope) =>
    SPEND_PERIODS.map((period) => ({
      userId: spender.userId,
      scope,
      period,
      startsAt: periodStart(period, now),
    })),
  );
}

/** The caps in force for these spenders' counters, by counter key. */
async function limitsOf(conn: Conn, spenders: Spender[], now: Date): Promise<Map<string, Limit>> {
  const limits = new Map<string, Limit>();
  const userIds = [...new Set(spenders.map((s) => s.userId))];
  const keyIds = [...new Set(spenders.flatMap((s) => (s.apiKeyId ? [s.apiKeyId] : [])))];
  const put = (userId: string, scope: string, period: SpendPeriod, cap: bigint | null) => {
    if (cap === null) return;
    const key = { userId, scope, period, startsAt: periodStart(period, now) };
    limits.set(keyOf(key), { ...key, capMicros: cap });
  };
  for (const row of await spendCapsRepo.accountCapsOf(conn, userIds)) {
    put(row.id, ACCOUNT, 'day', storedCap(row.daily));
    put(row.id, ACCOUNT, 'month', storedCap(row.monthly));
  }
  for (const row of await spendCapsRepo.keyCapsOf(conn, keyIds)) {
    put(row.userId, row.id, 'day', row.dailyCapMicros);
    put(row.userId, row.id, 'month', row.monthlyCapMicros);
  }
  return limits;
}

const scopeOf = (limit: Limit): 'account' | 'api_key' =>
  limit.scope === ACCOUNT ? 'account' : 'api_key';

const warningOf = (limit: Limit, spent: bigint): SpendWarning => ({
  userId: limit.userId,
  apiKeyId: limit.scope === ACCOUNT ? null : limit.scope,
  period: limit.period,
  cap: microsToDollars(limit.capMicros),
  spent: microsToDollars(spent),
});

/** The subject of a cap's events: the account's (its user) or one key's. */
export const spendCapSubject = (userId: string, apiKeyId: string | null) => apiKeyId ?? userId;

/** A warning given is an event of the log, in the transaction that marked it (docs/decisions/027). */
async function recordWarning(tx: Tx, warning: SpendWarning, at: Date): Promise<SpendWarning> {
  await eventLog.append(tx, {
    type: 'spend_cap.warning',
    at,
    accountUserId: warning.userId,
    subjectKind: 'spend_cap',
    subjectId: spendCapSubject(warning.userId, warning.apiKeyId),
    data: {
      scope: warning.apiKeyId === null ? 'account' : 'api_key',
      apiKeyId: warning.apiKeyId,
      period: warning.period,
      cap: warning.cap,
      spent: warning.spent,
    },
  });
  return warning;
}

/**
 * The metered-minute job's view of spend for one batch (wallets already locked): whether a
 * minute fits every cap of its spender, the minutes added in memory, then written at once.
 */
export interface SpendBook {
  /** Adds `micros` when it fits every cap; else names the cap it would cross and adds nothing. */
  charge(spender: Spender, micros: bigint): CapReached | null;
  /** Writes the counters and returns the 80% warnings that are new. */
  write(tx: Tx, now: Date): Promise<SpendWarning[]>;
}

/**
 * Counters after `micros` was added (each with its scope's cap): SPEND_CAP_REACHED when one
 * crossed its cap (with `headroom` still to come), else the 80% warnings reached now.
 */
async function judgeAdded(
  tx: Tx,
  added: Awaited<ReturnType<typeof spendCapsRepo.addWithCaps>>,
  micros: bigint,
  headroom: bigint,
  now: Date,
): Promise<SpendWarning[]> {
  const warnings: SpendWarning[] = [];
  for (const row of added) {
    const cap = row.scope === ACCOUNT ? storedCap(row.accountCap) : row.keyCapMicros;
    if (cap === null) continue;
    const limit: Limit = {
      userId: row.userId,
      scope: row.scope,
      period: row.period,
      startsAt: row.startsAt,
      capMicros: cap,
    };
    const before = row.spentMicros - micros;
    if (wouldCross(before, micros + headroom, limit.capMicros)) {
      throw spendCapReached(limit.capMicros, before, limit.period, scopeOf(limit));
    }
    if (row.warnedAt !== null || !atWarning(row.spentMicros, limit.capMicros)) continue;
    if (await spendCapsRepo.markWarned(tx, row, now)) {
      warnings.push(await recordWarning(tx, warningOf(limit, row.spentMicros), now));
    }
  }
  return warnings;
}

export const spendCapsService = {
  /**
   * The one count of a single charge against the caps (issue 39, part 3): a rental's booked
   * hours and storage add-on, the storage minute a metered instance opens with, the compute
   * minute it becomes ready with. Counted in the charge's own transaction, after the charge
   * has locked the wallet; 402 SPEND_CAP_REACHED when it would cross a cap (the caller's
   * transaction, or savepoint, then rolls back). `headroom` is refused as if charged but not
   * counted: a create must leave room for the compute minute its readiness will charge.
   * Returns the 80% warnings it set off. An API key's launch is the key's from its insert (the
   * instance core writes `api_key_id`): its charges count toward that key's caps.
   * The metered-minute job counts its batches through `book` (same counters, same rule).
   */
  async countCharge(
    tx: Tx,
    spender: Spender,
    micros: bigint,
    now: Date,
    headroom = 0n,
  ): Promise<SpendWarning[]> {
    if (micros <= 0n && headroom <= 0n) return [];
    // Each counter comes back with its scope's cap for its period (one statement).
    const added = await spendCapsRepo.addWithCaps(
      tx,
      countersOf(spender, now).map((k) => ({ ...k, micros })),
    );
    return judgeAdded(tx, added, micros, headroom, now);
  },

  /**
   * A charge's posting (one that moves only its wallet's balance) and `countCharge` of what
   * left the wallet, in one statement: INSUFFICIENT_CREDITS or SPEND_CAP_REACHED as each
   * would alone (the caller's transaction then rolls back). A posting that moves more than
   * one balance takes the two steps. Returns the posting's transaction id (null when its
   * idempotency key was used before).
   */
  async postCounted(tx: Tx, input: Posting, spender: Spender, now: Date): Promise<bigint | null> {
    const posting = preparePosting(input);
    const micros =
      posting.inline && posting.inline.amountMicros < 0n ? -posting.inline.amountMicros : 0n;
    if (posting.after.length > 0 || micros === 0n) {
      const id = await ledgerService.post(tx, input);
      await this.countCharge(tx, spender, micros, now);
      return id;
    }
    const { added, posted } = await spendCapsRepo.postAndAddWithCaps(
      tx,
      posting,
      countersOf(spender, now).map((k) => ({ ...k, micros })),
    );
    const done = readPostingOutcome(posted, true);
    ledgerService.checkMoved(posting, done);
    await judgeAdded(tx, added, micros, 0n, now);
    return done.id;
  },

  /** The spend book of a batch of metered minutes (see SpendBook). */
  async book(tx: Tx, spenders: Spender[], now: Date): Promise<SpendBook> {
    const limits = await limitsOf(tx, spenders, now);
    const rows = new Map<string, PeriodRow>();
    for (const r of await spendCapsRepo.periods(
      tx,
      [...new Set(spenders.map((s) => s.userId))],
      SPEND_PERIODS.map((p) => periodStart(p, now)),
    )) {
      rows.set(keyOf(r), r);
    }
    const added = new Map<string, PeriodKey & { micros: bigint }>();
    const spentNow = (k: PeriodKey) =>
      (rows.get(keyOf(k))?.spentMicros ?? 0n) + (added.get(keyOf(k))?.micros ?? 0n);
    return {
      charge(spender, micros) {
        const counters = countersOf(spender, now);
        for (const k of counters) {
          const limit = limits.get(keyOf(k));
          if (limit && wouldCross(spentNow(k), micros, limit.capMicros)) {
            return {
              userId: spender.userId,
              apiKeyId: k.scope === ACCOUNT ? null : k.scope,
              period: k.period,
            };
          }
        }
        if (micros <= 0n) return null;
        for (const k of counters) {
          const seen = added.get(keyOf(k));
          added.set(keyOf(k), { ...k, micros: (seen?.micros ?? 0n) + micros });
        }
        return null;
      },
      async write(writeTx, at) {
        const totals = await spendCapsRepo.add(writeTx, [...added.values()]);
        const warnings: SpendWarning[] = [];
        for (const row of totals) {
          const limit = limits.get(keyOf(row));
          if (!limit || row.warnedAt !== null || !atWarning(row.spentMicros, limit.capMicros)) {
            continue;
          }
          if (await spendCapsRepo.markWarned(writeTx, row, at)) {
            warnings.push(await recordWarning(writeTx, warningOf(limit, row.spentMicros), at));
          }
        }
        return warnings;
      },
    };
  },

  /** Sets an API key's caps (dollars, null: none); 404 when it is not the user's live key. */
  async setKeyCaps(
    conn: Conn,
    userId: string,
    keyId: string,
    caps: { dailySpendCap: string | null; monthlySpendCap: string | null },
  ): Promise<void> {
    const found = await spendCapsRepo.setKeyCaps(conn, userId, keyId, {
      dailyCapMicros: capMicros(caps.dailySpendCap),
      monthlyCapMicros: capMicros(caps.monthlySpendCap),
    });
    if (!found) throw notFound('API key');
  },

  /** What the account (or an API key) spent in the periods holding `now`, in dollars. */
  async spent(conn: Conn, spender: Spender, now: Date) {
    const spent = await spentBy(conn, [spender], now);
    const scope = spender.apiKeyId ?? ACCOUNT;
    const of = (period: SpendPeriod) =>
      microsToDollars(
        spent.get(
          keyOf({ userId: spender.userId, scope, period, startsAt: periodStart(period, now) }),
        ) ?? 0n,
      );
    return { day: of('day'), month: of('month') };
  },
};

async function spentBy(conn: Conn, spenders: Spender[], now: Date): Promise<Map<string, bigint>> {
  const rows = await spendCapsRepo.periods(
    conn,
    [...new Set(spenders.map((s) => s.userId))],
    SPEND_PERIODS.map((p) => periodStart(p, now)),
  );
  return new Map(rows.map((r) => [keyOf(r), r.spentMicros]));
}
