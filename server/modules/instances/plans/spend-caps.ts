import { eventLog } from '../../events/service';
import { type CapReached, spendCapSubject } from '../../spend-caps/service';
import type { InstancesContext } from '../context';
import { instancesRepo } from '../repo';
import { ENDINGS } from './end-reasons';
import { meteredSql } from './metered-sql';

/**
 * The metered plan's side of spend caps (issue 23, part 6; the caps themselves live in
 * modules/spend-caps): the stop of a scope's running instances once a minute would cross a
 * cap. A create's and a readiness's charges are counted where they are made
 * (plans/metered-opening.ts).
 */

/**
 * Stops the running metered instances of every scope whose cap a minute would have crossed
 * (the account's, or one key's), each in its own transaction after the charges commit.
 * Returns how many were stopped.
 */
export async function stopForSpendCaps(
  ctx: InstancesContext,
  reached: CapReached[],
  now: Date,
): Promise<number> {
  const seen = new Set<string>();
  let stopped = 0;
  for (const scope of reached) {
    const key = `${scope.userId}|${scope.apiKeyId ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ids = await meteredSql.runningPerMinute(ctx.db, scope.userId, scope.apiKeyId);
    let reachedLogged = false;
    for (const id of ids) {
      const row = await ctx.accounts.transact(async (tx) => {
        const found = await instancesRepo.lockView(tx, id);
        if (found?.instance.status !== 'running') return null;
        await ctx.stopLocked(tx, found.instance, now, ENDINGS.spendCap.reason);
        // The cap reached is an event once per scope and pass, with its first stop.
        if (!reachedLogged) {
          await eventLog.append(tx, {
            type: 'spend_cap.reached',
            at: now,
            accountUserId: scope.userId,
            subjectKind: 'spend_cap',
            subjectId: spendCapSubject(scope.userId, scope.apiKeyId),
            data: {
              scope: scope.apiKeyId === null ? 'account' : 'api_key',
              apiKeyId: scope.apiKeyId,
              period: scope.period,
            },
          });
        }
        return found.instance;
      });
      if (!row) continue;
      reachedLogged = true;
      stopped += 1;
    }
  }
  return stopped;
}
