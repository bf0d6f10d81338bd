import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES, type Currency, convertUsd, formatMoney } from './currency';

const DECIMALS: Record<Currency, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2 };

/** What formatMoney stands in for: Intl's currency format with the currency's decimals. */
function intlMoney(usd: number | string, currency: Currency): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: DECIMALS[currency],
    maximumFractionDigits: DECIMALS[currency],
  }).format(convertUsd(Number(usd), currency));
}

describe('formatMoney', () => {
  it('shows a USD amount in each display currency, each with its own decimals', () => {
    expect(formatMoney(1.45)).toBe('$1.45');
    expect(formatMoney('1.45', 'EUR')).toBe('€1.23');
    expect(formatMoney(1.45, 'GBP')).toBe('£1.06');
    expect(formatMoney(1.45, 'JPY')).toBe('¥160');
    expect(formatMoney(1.45, 'INR')).toBe('₹120.71');
  });

  it('keeps each currency apart when they take turns', () => {
    expect([
      formatMoney(2, 'JPY'),
      formatMoney(2),
      formatMoney(2, 'JPY'),
      formatMoney(1234.5),
    ]).toEqual(['¥220', '$2.00', '¥220', '$1,234.50']);
  });

  it('writes what Intl.NumberFormat writes at the edges', () => {
    const edges = [
      0,
      -0,
      0.5,
      -0.5,
      1.5,
      2.5,
      0.005,
      0.015,
      1.005,
      2.675,
      -2.675,
      0.004999,
      -0.001,
      9.995,
      99.995,
      999.995,
      999999.995,
      1e-7,
      -1e-7,
      1e21,
      1.2345678901234566e25,
      -1e21,
      1e300,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      Number.MAX_SAFE_INTEGER,
      123456789012.345,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (const currency of CURRENCIES) {
      for (const usd of edges) expect(formatMoney(usd, currency)).toBe(intlMoney(usd, currency));
      for (const text of ['', ' 12.5 ', 'abc', '1e3', '-0', '0.125', '12,5'])
        expect(formatMoney(text, currency)).toBe(intlMoney(text, currency));
    }
  });

  it('writes what Intl.NumberFormat writes for any amount in any currency', () => {
    const amount = fc.oneof(
      // Any double, NaN, infinities and -0 included.
      fc.double(),
      // Prices and balances: whole cents, negative ones too.
      fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100),
      // Halfway cases and their neighbours, where rounding can go either way.
      fc
        .tuple(
          fc.integer({ min: -1e7, max: 1e7 }),
          fc.constantFrom(0.005, 0.0049999, 0.0050001, 0.5),
        )
        .map(([n, half]) => n / 100 + half),
      // Amounts of any size, tiny to beyond 2^53.
      fc
        .tuple(fc.double({ min: 1, max: 10, noNaN: true }), fc.integer({ min: -12, max: 30 }))
        .map(([m, e]) => m * 10 ** e),
    );
    fc.assert(
      fc.property(amount, fc.constantFrom(...CURRENCIES), fc.boolean(), (usd, currency, asText) => {
        const input = asText ? String(usd) : usd;
        expect(formatMoney(input, currency)).toBe(intlMoney(input, currency));
      }),
      { numRuns: 5000 },
    );
  });
});
