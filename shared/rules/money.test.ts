import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dollarsToMicros,
  microsToDollars,
  preciseDollars,
  shownCents,
  shownSignedCents,
} from './money';

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

  it('shows history money to the cent, and money under half a cent as "<$0.01", never $0.00', () => {
    expect(shownCents(-3_334n)).toBe('<$0.01');
    expect(shownSignedCents(-3_334n)).toBe('-<$0.01');
    expect(shownSignedCents(-4_999n)).toBe('-<$0.01');
    expect(shownSignedCents(-5_000n)).toBe('-$0.01');
    expect(shownSignedCents(-1_281_000n)).toBe('-$1.28');
    expect(shownSignedCents(-1_285_000n)).toBe('-$1.29');
    expect(shownSignedCents(25_000_000n)).toBe('+$25.00');
    expect(shownSignedCents(1_234_567_890_000n)).toBe('+$1,234,567.89');
    expect(shownSignedCents(0n)).toBe('+$0.00');
  });

  it('shows at most two decimals for any amount, and within half a cent of it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), (micros) => {
        const shown = shownCents(micros);
        expect(shown).toMatch(/^(<\$0\.01|\$\d{1,3}(,\d{3})*\.\d{2})$/);
        if (shown === '<$0.01') return;
        const abs = micros < 0n ? -micros : micros;
        const cents = dollarsToMicros(shown.slice(1).replaceAll(',', ''));
        expect(cents - abs <= 5_000n && abs - cents < 5_000n).toBe(true);
        if (abs > 0n) expect(cents > 0n).toBe(true);
      }),
    );
    expect(preciseDollars(-3_334n)).toBe('-0.003334');
  });
});
