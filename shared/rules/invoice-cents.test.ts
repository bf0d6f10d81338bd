import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCents, invoiceTotal, lineAmounts } from './invoice-cents';
import { dollarsToMicros } from './money';

/** An invoice's lines, as the plans write them: charges, refunds and credits in micro-dollars. */
const line = fc.bigInt({ min: -50_000_000n, max: 50_000_000n });

describe('invoice lines in cents', () => {
  it('lines that each round down still add up to the rounded total', () => {
    expect(lineAmounts([274_000n, 1_000n])).toEqual(['0.28', '0.00']);
    expect(lineAmounts([264_000n, 9_000n])).toEqual(['0.26', '0.01']);
    expect(invoiceTotal([264_000n, 9_000n])).toBe('0.27');
    expect(invoiceTotal([274_000n, 1_000n])).toBe('0.28');
  });

  it('every invoice adds up: its lines sum to its total, each within a cent of its exact amount', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const amounts = lineAmounts(lines).map(dollarsToMicros);
        const sum = amounts.reduce((total, a) => total + a, 0n);
        expect(sum).toBe(dollarsToMicros(invoiceTotal(lines)));
        lines.forEach((exact, i) => {
          const shown = amounts[i] ?? 0n;
          const off = shown > exact ? shown - exact : exact - shown;
          expect(off < 10_000n).toBe(true);
        });
        expect(allocateCents(lines)).toHaveLength(lines.length);
      }),
      { numRuns: 5000 },
    );
  });

  it('lines already in whole cents are shown as they are', () => {
    expect(lineAmounts([1_230_000n, -230_000n, 0n])).toEqual(['1.23', '-0.23', '0.00']);
  });
});
