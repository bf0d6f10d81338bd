import { computeMinuteMicros, storageMinuteMicros } from '../../../../shared/rules/metering';
import { microsToDollars, preciseDollars } from '../../../../shared/rules/money';
import type { PlanTerms } from './terms';

/** The metered plan's money in words (presenters: the public API's usage and invoices). */
export const meteredTerms: PlanTerms = {
  name: 'metered',
  capabilities: {
    escrowsUpFront: false,
    chargesPerMinute: true,
    stopKeepsDisk: true,
    preemptible: false,
    readyMovesNoMoney: false,
    listedAs: 'machine',
  },
  costSoFarMicros: (instance) => instance.chargedMicros,
  billedSeconds: (instance) => instance.computeMinutes * 60,
  minutesNotCharged: (_instance, outages) =>
    outages.reduce((sum, o) => sum + o.minutesNotCharged, 0),
  /** Its minutes' money, split by its counters (the ledger does not split a minute's line). */
  charges(instance, sumOf) {
    const minutes = -sumOf('metered_minute');
    let computeMicros =
      BigInt(instance.computeMinutes) * computeMinuteMicros(instance.hourlyRateMicros);
    if (computeMicros > minutes) computeMicros = minutes;
    return { computeMicros, storageMicros: minutes - computeMicros };
  },
  invoiceLines({ instance, listing }, money) {
    const rate = microsToDollars(instance.hourlyRateMicros);
    return [
      {
        description: `Compute: ${listing.model} at $${rate}/h, by the minute`,
        quantity: instance.computeMinutes,
        unit: 'minute',
        unitPrice: preciseDollars(computeMinuteMicros(instance.hourlyRateMicros)),
        amountMicros: money.computeMicros,
      },
      {
        description: `Storage: ${instance.storageGb} GB, by the minute`,
        quantity: instance.storageMinutes,
        unit: 'minute',
        unitPrice: preciseDollars(storageMinuteMicros(instance.storageGb)),
        amountMicros: money.storageMicros,
      },
    ];
  },
};
