import { describe, expect, it } from 'vitest';
import { formatMoney } from './currency';

describe('formatMoney', () => {
  it('shows a USD amount in each display currency, each with its own decimals', () => {
    expect(formatMoney(1.45)).toBe('$1.45');
    expect(formatMoney('1.45', 'EUR')).toBe('€1.23');
    expect(formatMoney(1.45, 'GBP')).toBe('£1.06');
    expect(formatMoney(1.45, 'JPY')).toBe('¥160');
    expect(formatMoney(1.45, 'INR')).toBe('₹120.71');
  });

  it('keeps each currency apart when they take turns (one kept format per currency)', () => {
    expect([
      formatMoney(2, 'JPY'),
      formatMoney(2),
      formatMoney(2, 'JPY'),
      formatMoney(1234.5),
    ]).toEqual(['¥220', '$2.00', '¥220', '$1,234.50']);
  });
});
