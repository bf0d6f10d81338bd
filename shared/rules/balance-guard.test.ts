import { describe, expect, it } from 'vitest';
import {
  bookedCharge,
  firstHourCharge,
  launchRefusal,
  safeReturnPath,
  shownBalance,
} from './balance-guard';
import { dollarsToMicros } from './money';

const rate = (dollars: string) => dollarsToMicros(dollars);
const noCaps = (balance: string) => ({ balance, caps: [] });

describe('what a launch must be able to pay', () => {
  it('a booked rental: hours × rate plus the $2.50 storage add-on, for balance and caps', () => {
    // 24 h of the cheapest seeded H100 ($4.50/h): $108.00 + $2.50.
    const charge = bookedCharge(rate('4.50'), 24);
    expect(charge).toEqual({
      basis: 'total',
      balanceMicros: rate('110.50'),
      capMicros: rate('110.50'),
    });
  });

  it('a pay-as-you-go instance: one hour of compute and storage held, its first minute capped', () => {
    // $1.20/h is 2 cents a minute; 100 GB at $0.001/GB-hour is 0.1 cent an hour.
    const charge = firstHourCharge(rate('1.20'), 100);
    expect(charge.basis).toBe('first_hour');
    expect(charge.balanceMicros).toBe(60n * (20_000n + 1_667n));
    expect(charge.capMicros).toBe(rate('0.02') + 1_667n);
  });
});

describe('launchRefusal', () => {
  it('refuses a $0.00 balance a booked total, naming both and what is missing', () => {
    const refusal = launchRefusal(bookedCharge(rate('1.45'), 24), noCaps('0.00'));
    expect(refusal).toEqual({
      kind: 'balance',
      shortMicros: rate('37.30'),
      reason:
        'Your balance of $0.00 does not cover this total of $37.30. Add at least $37.30 in credits to rent it.',
    });
  });

  it('refuses the demo’s $100 24 hours of the $4.50 H100 and admits 21 hours', () => {
    expect(launchRefusal(bookedCharge(rate('4.50'), 24), noCaps('100.00'))?.reason).toBe(
      'Your balance of $100.00 does not cover this total of $110.50. Add at least $10.50 in credits to rent it.',
    );
    expect(launchRefusal(bookedCharge(rate('4.50'), 21), noCaps('100.00'))).toBeNull();
  });

  it('admits a total equal to the balance, to the micro-dollar', () => {
    expect(launchRefusal(bookedCharge(rate('1.45'), 24), noCaps('37.30'))).toBeNull();
    expect(launchRefusal(bookedCharge(rate('1.45'), 24), noCaps('37.299999'))?.kind).toBe(
      'balance',
    );
  });

  it('says a pay-as-you-go guard is the first hour, rounded up, with a balance rounded down', () => {
    const charge = firstHourCharge(rate('1.20'), 100);
    const refusal = launchRefusal(charge, noCaps('1.259'));
    expect(refusal?.reason).toBe(
      'Your balance of $1.25 does not cover the first hour ($1.31): a pay-as-you-go instance starts only when your balance holds its first hour. Add at least $0.05 in credits to launch it.',
    );
    expect(launchRefusal(charge, noCaps('1.30002'))).toBeNull();
  });

  it('refuses what would go over the daily cap, then the monthly one, with the cap and what was spent', () => {
    const charge = bookedCharge(rate('1.00'), 10); // $12.50
    const limits = {
      balance: '500.00',
      caps: [
        { period: 'month' as const, cap: '20.00', spent: '8.00' },
        { period: 'day' as const, cap: '50.00', spent: '40.00' },
      ],
    };
    expect(launchRefusal(charge, limits)).toEqual({
      kind: 'cap',
      period: 'day',
      reason:
        'This total of $12.50 would go over your daily spend cap of $50.00 ($40.00 spent today). Raise or remove the cap in Settings → Billing.',
    });
    const dayRoom = {
      balance: '500.00',
      caps: [
        { period: 'month' as const, cap: '20.00', spent: '8.00' },
        { period: 'day' as const, cap: '50.00', spent: '0' },
      ],
    };
    expect(launchRefusal(charge, dayRoom)?.reason).toBe(
      'This total of $12.50 would go over your monthly spend cap of $20.00 ($8.00 spent this month). Raise or remove the cap in Settings → Billing.',
    );
    // Exactly at the cap is allowed (the server refuses only what goes over it).
    const exact = {
      balance: '500.00',
      caps: [{ period: 'month' as const, cap: '20.50', spent: '8.00' }],
    };
    expect(launchRefusal(charge, exact)).toBeNull();
  });

  it('sets a pay-as-you-go instance’s first minute, not its hour, against a cap', () => {
    const charge = firstHourCharge(rate('6.00'), 50); // 10 cents a minute; the hour is $6.05
    const caps = [{ period: 'day' as const, cap: '5.00', spent: '4.85' }];
    expect(launchRefusal(charge, { balance: '100', caps })).toBeNull();
    const full = [{ period: 'day' as const, cap: '5.00', spent: '4.95' }];
    expect(launchRefusal(charge, { balance: '100', caps: full })?.reason).toBe(
      'Its first minute ($0.11) would go over your daily spend cap of $5.00 ($4.95 spent today). Raise or remove the cap in Settings → Billing.',
    );
  });

  it('names the balance first when both the balance and a cap refuse', () => {
    const caps = [{ period: 'day' as const, cap: '1.00', spent: '0' }];
    expect(launchRefusal(bookedCharge(rate('2.00'), 2), { balance: '0', caps })?.kind).toBe(
      'balance',
    );
  });
});

describe('shownBalance', () => {
  it('rounds a balance down to the cent', () => {
    expect(shownBalance('0.003334')).toBe('$0.00');
    expect(shownBalance('99.999')).toBe('$99.99');
    expect(shownBalance('100')).toBe('$100.00');
  });
});

describe('safeReturnPath', () => {
  it('keeps a path of this site with its query', () => {
    expect(safeReturnPath('/marketplace?rent=12&hours=24')).toBe('/marketplace?rent=12&hours=24');
    expect(safeReturnPath('/vm-dashboard')).toBe('/vm-dashboard');
  });

  it.each([
    ['https://evil.example/'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['marketplace'],
    ['/api/logout'],
    ['/api'],
    ['/market\nplace'],
    [''],
    [null],
    [`/${'a'.repeat(1000)}`],
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });
});
