import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dollarsToMicros, microsToDollars } from './money';

describe('money', () => {
  it('formats micro-dollars as dollars with two decimals', () => {
    expect(microsToDollars(100_000_000n)).toBe('100.00');
    expect(microsToDollars(2_500_000n)).toBe('2.50');
    expect(microsToDollars(4_999n)).toBe('0.00');
    expect(microsToDollars(5_000n)).toBe('0.01');
    expect(microsToDollars(-1_250_000n)).toBe('-1.25');
  });

  it('parses dollar strings exactly', () => {
    expect(dollarsToMicros('2.50')).toBe(2_500_000n);
    expect(dollarsToMicros('100')).toBe(100_000_000n);
    expect(dollarsToMicros('0.000001')).toBe(1n);
    expect(() => dollarsToMicros('1.2.3')).toThrow();
    expect(() => dollarsToMicros('1e3')).toThrow();
  });

  it('round-trips whole cents', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), (cents) => {
        const micros = cents * 10_000n;
        expect(dollarsToMicros(microsToDollars(micros))).toBe(micros);
      }),
    );
  });
});
