import type { InvoiceDayLine, InvoiceLineKind } from '../../../shared/contracts/invoices';
import { allocateCents, invoiceTotal } from '../../../shared/rules/invoice-cents';
import { computeMinuteMicros } from '../../../shared/rules/metering';
import { microsToDollars, preciseDollars } from '../../../shared/rules/money';
import type { InstanceRow } from '../instances/service';

/** What the ledger moved in a wallet for one reference on one UTC day, of one kind and sign. */
export interface DayMoves {
  reference: string;
  day: string;
  kind: string;
  count: number;
  /** Of them, the postings that charged compute (a metered minute's memo says so). */
  computeCount: number;
  totalMicros: bigint;
}

/** "instance:12" and "rental:12" → 12. */
export function instanceIdOf(reference: string): number | null {
  const match = /^(?:instance|rental):(\d+)$/.exec(reference);
  return match ? Number(match[1]) : null;
}

interface ExactLine extends Omit<InvoiceDayLine, 'amount'> {
  micros: bigint;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One day's moves of one instance as invoice lines, each with its exact amount (a charge
 * positive, a refund or credit negative): a booking splits into its hours and its storage
 * add-on, a day of metered minutes into compute (its compute minutes at the instance's
 * per-minute price) and storage (the rest), as the instance's plan splits its charges.
 */
function linesOf(moves: DayMoves, row: InstanceRow): ExactLine[] {
  const { instance, listing } = row;
  const base = { day: moves.day, instanceId: instance.id, gpuModel: listing.model };
  const rate = microsToDollars(instance.hourlyRateMicros);
  const charged = -moves.totalMicros;
  const line = (
    kind: InvoiceLineKind,
    description: string,
    micros: bigint,
    postings = moves.count,
  ): ExactLine[] => (micros === 0n ? [] : [{ ...base, kind, description, postings, micros }]);

  if (moves.kind === 'outage_credit') {
    return line(
      'outage_credit',
      'Outage credit: the host was unreachable for more than 4 hours',
      charged,
    );
  }
  if (charged < 0n) {
    const description =
      moves.kind === 'rental_settle'
        ? 'Refund: unused booked time'
        : moves.kind === 'rental_cancel'
          ? 'Refund: never ready, everything returned'
          : moves.kind === 'metered_minute'
            ? 'Refund: never ready, its minutes given back'
            : 'Refund';
    return line('refund', description, charged);
  }
  if (moves.kind === 'rental_start') {
    const storage = charged >= instance.storageFeeMicros ? instance.storageFeeMicros : 0n;
    return [
      ...line(
        'compute',
        `Booking: ${instance.durationHours ?? 0} h of ${listing.model} at $${rate}/h`,
        charged - storage,
      ),
      ...line('storage', 'Storage add-on', storage),
    ];
  }
  if (moves.kind === 'metered_minute') {
    let compute = BigInt(moves.computeCount) * computeMinuteMicros(instance.hourlyRateMicros);
    if (compute > charged) compute = charged;
    return [
      ...line(
        'compute',
        `Compute: ${listing.model} at $${rate}/h, ${plural(moves.computeCount, 'minute')}`,
        compute,
        moves.computeCount,
      ),
      ...line('storage', `Storage: ${instance.storageGb} GB, by the minute`, charged - compute),
    ];
  }
  return line('compute', `Charge: ${moves.kind}`, charged);
}

export interface DayLines {
  lines: InvoiceDayLine[];
  totals: { compute: string; storage: string; refunds: string; total: string };
  /** Each instance's exact total, by id. */
  perInstance: Map<number, bigint>;
}

/**
 * The invoice's lines per instance and day, oldest day first, and its totals: compute,
 * storage and refunds in cents that add up to the total, which is the exact sum of the
 * ledger's entries rounded once (shared/rules/invoice-cents.ts, docs/rules.md, Money).
 */
export function dayLines(
  moves: readonly DayMoves[],
  rows: ReadonlyMap<number, InstanceRow>,
): DayLines {
  const exact: ExactLine[] = [];
  for (const m of moves) {
    const id = instanceIdOf(m.reference);
    const row = id === null ? undefined : rows.get(id);
    if (row) exact.push(...linesOf(m, row));
  }
  const order: Record<InvoiceLineKind, number> = {
    compute: 0,
    storage: 1,
    refund: 2,
    outage_credit: 3,
  };
  exact.sort((a, b) =>
    a.day !== b.day
      ? a.day < b.day
        ? -1
        : 1
      : a.instanceId !== b.instanceId
        ? a.instanceId - b.instanceId
        : order[a.kind] - order[b.kind],
  );
  const sumOf = (kinds: InvoiceLineKind[]) =>
    exact.filter((l) => kinds.includes(l.kind)).reduce((sum, l) => sum + l.micros, 0n);
  const parts = [sumOf(['compute']), sumOf(['storage']), sumOf(['refund', 'outage_credit'])];
  const [compute = 0n, storage = 0n, refunds = 0n] = allocateCents(parts);
  const cents = (c: bigint) => microsToDollars(c * 10_000n);
  const perInstance = new Map<number, bigint>();
  for (const l of exact)
    perInstance.set(l.instanceId, (perInstance.get(l.instanceId) ?? 0n) + l.micros);
  return {
    lines: exact.map(({ micros, ...rest }) => ({ ...rest, amount: preciseDollars(micros) })),
    totals: {
      compute: cents(compute),
      storage: cents(storage),
      refunds: cents(refunds),
      total: invoiceTotal(parts),
    },
    perInstance,
  };
}
