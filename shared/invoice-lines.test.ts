import { describe, expect, it } from 'vitest';
import {
  INVOICE_LINE_LABELS as contractLabels,
  MONTH_PATTERN as contractMonth,
} from './contracts/invoices';
import { serialId } from './contracts/params';
import { INVOICE_LINE_LABELS, isSerialIdText, MONTH_PATTERN } from './invoice-lines';

describe('invoice-lines: the invoice pages read addresses as the contract does', () => {
  it('an id in the address is a serial id exactly when the contract would take it', () => {
    const texts = [
      '1',
      '42',
      '0',
      '00',
      '007',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      '',
      'abc',
      '2147483647',
      '2147483648',
      '99999999999999999999',
    ];
    for (const text of texts) {
      expect(isSerialIdText(text), text).toBe(
        /^\d+$/.test(text) && serialId.safeParse(text).success,
      );
    }
    expect(isSerialIdText(undefined)).toBe(false);
  });

  it('the contract re-exports the same month pattern and line words', () => {
    expect(contractMonth).toBe(MONTH_PATTERN);
    expect(contractLabels).toBe(INVOICE_LINE_LABELS);
  });
});
