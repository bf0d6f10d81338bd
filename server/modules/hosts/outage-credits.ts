import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { microsToDollars } from '../../../shared/rules/money';
import { bookedCostMicros } from '../../../shared/rules/pricing';
import { hostOutages, instances } from '../../db/schema';
import type { AccountBook } from '../ledger/accounts';
import { ledgerService } from '../ledger/service';

/** "An outage over 4 hours earns automatic credits" (docs/decisions/011; docs/rules.md, Business constants). */
export const OUTAGE_CREDIT_AFTER_MS = 4 * 3_600_000;
/** What each affected instance earns (docs/decisions/011): this many hours at its rate. */
export const OUTAGE_CREDIT_HOURS = 4;

/**
 * The outage credit rule (docs/decisions/011-outage-credits.md). Once a host's outage has
 * lasted more than 4 hours, every instance that was ready on it when the outage began earns
 * its renter 4 hours at the instance's hourly rate, paid from the provider's earnings (which
 * may go below zero and are then paid back from later earnings). Each credit is one ledger
 * transaction keyed by outage and instance, so it is paid once however often the job runs.
 */
export function createOutageCredits(deps: { accounts: AccountBook }) {
  const { accounts } = deps;
  return {
    /** Job: credits every outage that has passed 4 hours and was not credited yet. */
    async creditLongOutages(now: Date, batch = 20): Promise<number> {
      return accounts.transact(async (tx) => {
        const threshold = new Date(now.getTime() - OUTAGE_CREDIT_AFTER_MS);
        const due = await tx
          .select()
          .from(hostOutages)
          .where(
            and(
              isNull(hostOutages.creditedAt),
              lte(hostOutages.startedAt, threshold),
              or(
                isNull(hostOutages.endedAt),
                sql`${hostOutages.endedAt} - ${hostOutages.startedAt} > interval '4 hours'`,
              ),
            ),
          )
          .limit(batch)
          .for('update', { skipLocked: true });
        for (const outage of due) {
          const affected = await tx
            .select()
            .from(instances)
            .where(
              and(
                eq(instances.hostId, outage.hostId),
                lte(instances.readyAt, outage.startedAt),
                or(isNull(instances.endTime), sql`${instances.endTime} > ${outage.startedAt}`),
              ),
            );
          for (const instance of affected) {
            const credit = bookedCostMicros(instance.hourlyRateMicros, OUTAGE_CREDIT_HOURS);
            await ledgerService.post(tx, {
              kind: 'outage_credit',
              memo: `Outage credit: instance ${instance.id}'s host was unreachable for more than 4 hours (${OUTAGE_CREDIT_HOURS} h at $${microsToDollars(instance.hourlyRateMicros)}/h)`,
              idempotencyKey: `outage-credit:${outage.id}:${instance.id}`,
              reference: `instance:${instance.id}`,
              lines: [
                {
                  accountId: await accounts.earnings(tx, instance.providerId),
                  amountMicros: -credit,
                },
                { accountId: await accounts.wallet(tx, instance.userId), amountMicros: credit },
              ],
            });
          }
          await tx
            .update(hostOutages)
            .set({ creditedAt: now })
            .where(eq(hostOutages.id, outage.id));
        }
        return due.length;
      });
    },
  };
}

export type OutageCredits = ReturnType<typeof createOutageCredits>;
