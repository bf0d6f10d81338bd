import { microsToDollars } from './money';

/**
 * An invoice's lines in cents that add up to its total (issue 39): money moves in
 * micro-dollars, an invoice shows cents, and rounding each line on its own made 0.27 + 0.01
 * print under a total of $0.27. The total is the exact sum rounded as every amount is
 * (half up, away from zero: money.ts microsToDollars); each line is its exact amount rounded
 * down to the cent, and the cents still missing go, one each, to the lines with the largest
 * remainders (largest remainder method). Every line stays within a cent of its exact amount.
 */
const CENT = 10_000n;

/** Rounded down to the cent (toward minus infinity), in cents. */
const floorCents = (micros: bigint) =>
  micros >= 0n ? micros / CENT : -((-micros + CENT - 1n) / CENT);

/** The total's cents, rounded as microsToDollars rounds. */
function totalCents(micros: bigint): bigint {
  const abs = micros < 0n ? -micros : micros;
  const cents = (abs + CENT / 2n) / CENT;
  return micros < 0n ? -cents : cents;
}

/** Each line's amount in cents, summing to the rounded total of all of them. */
export function allocateCents(lines: readonly bigint[]): bigint[] {
  const total = totalCents(lines.reduce((sum, l) => sum + l, 0n));
  const cents = lines.map(floorCents);
  let missing = total - cents.reduce((sum, c) => sum + c, 0n);
  const byRemainder = lines
    .map((micros, i) => ({ i, remainder: micros - (cents[i] ?? 0n) * CENT }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of byRemainder) {
    if (missing <= 0n) break;
    cents[i] = (cents[i] ?? 0n) + 1n;
    missing -= 1n;
  }
  return cents;
}

/** The lines' amounts as dollar strings ("0.27") that add up to `invoiceTotal(lines)`. */
export function lineAmounts(lines: readonly bigint[]): string[] {
  return allocateCents(lines).map((c) => microsToDollars(c * CENT));
}

/** The invoice's total as a dollar string: the exact sum, rounded once. */
export const invoiceTotal = (lines: readonly bigint[]) =>
  microsToDollars(lines.reduce((sum, l) => sum + l, 0n));
