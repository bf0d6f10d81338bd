import { MICROS_PER_DOLLAR } from '../constants';

/** Micro-dollars (bigint) to a dollar string with two decimals, rounding half away from zero. */
export function microsToDollars(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const cents = (abs + 5_000n) / 10_000n;
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  return `${negative && cents > 0n ? '-' : ''}${whole}.${frac}`;
}

/** A decimal dollar string ("2.50", "100", "0.000001") to micro-dollars. Throws on anything else. */
export function dollarsToMicros(dollars: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(dollars.trim());
  if (!match) throw new Error(`Not a dollar amount: ${dollars}`);
  const [, sign, whole = '0', frac = ''] = match;
  const micros = BigInt(whole) * MICROS_PER_DOLLAR + BigInt(frac.padEnd(6, '0'));
  return sign ? -micros : micros;
}

/** Micro-dollars as dollars with as many decimals as needed (at least two): a minute's price. */
export function preciseDollars(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${negative ? '-' : ''}${whole}.${frac.padEnd(2, '0')}`;
}

/**
 * An amount as a history shows it, without its sign: to the cent ("$1,281.50"), and "<$0.01"
 * for money that moved but is under half a cent (never "$0.00"). The exact figure stays in the
 * API's `amountMicros` and the CSV export's `amount_exact` column.
 */
export function shownCents(micros: bigint): string {
  const abs = micros < 0n ? -micros : micros;
  if (abs > 0n && abs < 5_000n) return '<$0.01';
  const [whole = '0', cents = '00'] = microsToDollars(abs).split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** A signed history amount: "+$25.00", "-$1.28", "-<$0.01". */
export function shownSignedCents(micros: bigint): string {
  return `${micros < 0n ? '-' : '+'}${shownCents(micros)}`;
}

/**
 * A dollar string ("1234.5", "-0.003334") as people read it on an invoice or a receipt:
 * "$1,234.5", "-$0.003334" — its digits as given (a total comes rounded to the cent, a minute's
 * line exact), the sign before the dollar sign, thousands grouped.
 */
export function dollarText(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', frac] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}${frac === undefined ? '' : `.${frac}`}`;
}
