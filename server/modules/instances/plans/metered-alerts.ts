import { dollarsToMicros, microsToDollars } from '../../../../shared/rules/money';
import type { Conn } from '../../../db/client';
import { eventLog } from '../../events/service';
import { usersService } from '../../users/service';
import type { InstancesContext } from '../context';
import { meteredSql } from './metered-sql';

/**
 * Job: warns users whose wallet fell below their low-balance threshold (settings; by
 * default one hour of what their metered instances cost now), once per crossing.
 */
export async function warnLowBalances(
  ctx: InstancesContext,
  now: Date,
  batch = 500,
): Promise<number> {
  const { db } = ctx;
  let after: string | null = null;
  let warned = 0;
  for (;;) {
    const spenders = await meteredSql.meteredSpenders(db, batch, after);
    for (const s of spenders) {
      const { billing } = await usersService.getSettings(db, s.userId);
      const threshold =
        billing.lowBalanceThreshold === null
          ? s.hourlyMicros
          : dollarsToMicros(billing.lowBalanceThreshold);
      if (s.balanceMicros < threshold) {
        // The crossing is marked and becomes an event in one transaction (docs/decisions/027).
        const marked = await db.transaction(async (tx) => {
          if (!(await meteredSql.markLowBalance(tx, s.userId, now))) return false;
          await eventLog.append(tx, {
            type: 'wallet.low_balance',
            at: now,
            accountUserId: s.userId,
            subjectKind: 'wallet',
            subjectId: s.userId,
            data: {
              balance: microsToDollars(s.balanceMicros),
              threshold: microsToDollars(threshold),
            },
          });
          return true;
        });
        if (marked) warned += 1;
      } else {
        await meteredSql.clearBalanceAlerts(db, s.userId);
      }
    }
    if (spenders.length < batch) break;
    after = spenders[spenders.length - 1]?.userId ?? null;
  }
  return warned;
}

/** What the app's banner shows: a low balance, or instances stopped for want of credits. */
export async function balanceAlert(ctx: InstancesContext, userId: string, conn?: Conn) {
  const row = await meteredSql.balanceAlertOf(conn ?? ctx.db, userId);
  if (!row) return null;
  if (row.stoppedAt) return { kind: 'out_of_credits' as const, stoppedInstances: row.stoppedCount };
  if (row.lowBalanceAt) return { kind: 'low_balance' as const, stoppedInstances: 0 };
  return null;
}
