import { microsToDollars } from '../../../../shared/rules/money';
import type { DraftLine, PlanTerms } from './terms';

/** The booked plan's money in words (presenters: the public API's usage and invoices). */
export const bookedTerms: PlanTerms = {
  name: 'booked',
  capabilities: {
    escrowsUpFront: true,
    chargesPerMinute: false,
    stopKeepsDisk: false,
    preemptible: false,
    readyMovesNoMoney: true,
    listedAs: 'rental',
  },
  costSoFarMicros: (instance) =>
    instance.bookedCostMicros + instance.storageFeeMicros - (instance.refundMicros ?? 0n),
  billedSeconds(instance) {
    if (instance.usedSeconds !== null) return instance.usedSeconds;
    return (instance.durationHours ?? 0) * 3600;
  },
  minutesNotCharged(instance, outages, now) {
    const end = (instance.endTime ?? now).getTime();
    const ms = outages.reduce(
      (sum, o) =>
        sum + Math.max(0, Math.min(o.endedAt?.getTime() ?? end, end) - o.startedAt.getTime()),
      0,
    );
    return Math.floor(ms / 60_000);
  },
  charges(instance, sumOf) {
    const held = -sumOf('rental_start');
    const storageMicros = held > 0n ? instance.storageFeeMicros : 0n;
    return { computeMicros: held - storageMicros, storageMicros };
  },
  invoiceLines({ instance, listing }, money) {
    const rate = microsToDollars(instance.hourlyRateMicros);
    const lines: DraftLine[] = [];
    if (money.computeMicros > 0n) {
      lines.push({
        description: `Booking: ${instance.durationHours} h of ${listing.model} at $${rate}/h`,
        quantity: instance.durationHours ?? 0,
        unit: 'hour',
        unitPrice: rate,
        amountMicros: money.computeMicros,
      });
    }
    if (money.storageMicros > 0n) {
      lines.push({
        description: 'Storage add-on',
        quantity: 1,
        unit: 'item',
        unitPrice: microsToDollars(money.storageMicros),
        amountMicros: money.storageMicros,
      });
    }
    if (money.unusedRefundMicros > 0n) {
      lines.push({
        description:
          instance.readyAt === null
            ? 'Refund: never ready, everything returned'
            : `Refund: unused time (${instance.usedSeconds ?? 0} s used)`,
        quantity: 1,
        unit: 'item',
        unitPrice: microsToDollars(-money.unusedRefundMicros),
        amountMicros: -money.unusedRefundMicros,
      });
    }
    return lines;
  },
};
