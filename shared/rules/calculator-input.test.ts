import { describe, expect, it } from 'vitest';
import { clampCalculatorDays, clampCalculatorHours } from './calculator-input';

describe('calculator inputs', () => {
  it('keeps hours from 1 to 167', () => {
    expect(clampCalculatorHours('24')).toBe(24);
    expect(clampCalculatorHours('500')).toBe(167);
    expect(clampCalculatorHours('167')).toBe(167);
    expect(clampCalculatorHours('0')).toBe(1);
    expect(clampCalculatorHours('-5')).toBe(1);
    expect(clampCalculatorHours('')).toBe(1);
    expect(clampCalculatorHours('abc')).toBe(1);
    expect(clampCalculatorHours('12.9')).toBe(12);
    expect(clampCalculatorHours('1e9')).toBe(167);
  });

  it('keeps days from 0 to 30', () => {
    expect(clampCalculatorDays('3')).toBe(3);
    expect(clampCalculatorDays('31')).toBe(30);
    expect(clampCalculatorDays('-1')).toBe(0);
    expect(clampCalculatorDays('')).toBe(0);
    expect(clampCalculatorDays('Infinity')).toBe(0);
  });
});
