import { describe, expect, it } from 'vitest';
import { DOLLAR_AMOUNT_MESSAGE, dollars, MAX_DOLLAR_AMOUNT } from './money';

describe('the one money schema', () => {
  const schema = dollars();

  it.each([
    ['1.50', '1.50'],
    [' 2 ', '2'],
    ['0.5', '0.5'],
    [3, '3'],
    [1.25, '1.25'],
    ['10000000', '10000000'],
  ])('accepts %j as %j', (input, output) => {
    expect(schema.parse(input)).toBe(output);
  });

  it.each([
    '1e20',
    '9223372036854775808',
    'abc',
    '-1',
    '1.234',
    '',
    '1,50',
    '0x10',
    'NaN',
    'Infinity',
    1e20,
    -1,
    1.234,
    Number.POSITIVE_INFINITY,
    Number.NaN,
    null,
    true,
    {},
    [],
  ])('refuses %j', (input) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
  });

  it('keeps under its upper bound and names it', () => {
    const result = schema.safeParse(String(MAX_DOLLAR_AMOUNT + 0.01));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('At most $10,000,000');
    expect(dollars({ max: 100 }).safeParse('100.01').success).toBe(false);
  });

  it('refuses 0 when asked for a positive amount, with its own message when given', () => {
    expect(dollars({ positive: true }).safeParse('0.00').success).toBe(false);
    expect(dollars().safeParse('abc').error?.issues[0]?.message).toBe(DOLLAR_AMOUNT_MESSAGE);
    expect(dollars({ message: 'No.' }).safeParse('abc').error?.issues[0]?.message).toBe('No.');
  });
});
