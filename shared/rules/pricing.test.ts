import { describe, expect, it } from 'vitest';
import { formatMoney } from './currency';
import {
  availabilityLabel,
  bookedCostMicros,
  calculatorTotal,
  dailyRate,
  formatRuntime,
  isLowAvailability,
  isRentable,
  isValidRentalHours,
  liveCostEstimate,
  monthlyRate,
  quoteRental,
  rentDialogTotal,
  roundUpToCent,
  sameDollars,
  splitEarnings,
  totalRuntimeHours,
  usedCostMicros,
} from './pricing';

describe('availability', () => {
  it.each([
    [{ status: 'rented', availableCount: 3 }, 'Rented'],
    [{ status: 'available', availableCount: 0 }, 'Rented'],
    [{ status: 'available', availableCount: 1 }, '1 Available'],
    [{ status: 'available', availableCount: 2 }, '2 Available'],
    [{ status: 'available', availableCount: 3 }, 'Available'],
    [{ status: 'available', availableCount: 12 }, 'Available'],
    [{ status: 'available', availableCount: 3, hostStatus: 'online' as const }, 'Available'],
    [{ status: 'available', availableCount: 3, hostStatus: 'offline' as const }, 'Host offline'],
    [{ status: 'available', availableCount: 3, hostStatus: 'none' as const }, 'No host connected'],
    [
      { status: 'available', availableCount: 0, hostStatus: 'not_ready' as const },
      'Host not ready',
    ],
  ])('%o is labelled %s', (listing, label) => {
    expect(availabilityLabel(listing)).toBe(label);
  });

  it('is not rentable while its host is offline, missing or not ready', () => {
    const free = { status: 'available', availableCount: 2 };
    expect(isRentable({ ...free, hostStatus: 'demo' })).toBe(true);
    expect(isRentable({ ...free, hostStatus: 'online' })).toBe(true);
    expect(isRentable({ ...free, hostStatus: 'offline' })).toBe(false);
    expect(isRentable({ ...free, hostStatus: 'none' })).toBe(false);
    expect(isRentable({ ...free, hostStatus: 'not_ready' })).toBe(false);
  });

  it('is amber at 2 or fewer', () => {
    expect(isLowAvailability({ status: 'available', availableCount: 2 })).toBe(true);
    expect(isLowAvailability({ status: 'available', availableCount: 0 })).toBe(true);
    expect(isLowAvailability({ status: 'available', availableCount: 3 })).toBe(false);
  });

  it('is rentable only when available with a free unit', () => {
    expect(isRentable({ status: 'available', availableCount: 1 })).toBe(true);
    expect(isRentable({ status: 'available', availableCount: 0 })).toBe(false);
    expect(isRentable({ status: 'maintenance', availableCount: 4 })).toBe(false);
    expect(isRentable({ status: 'rented', availableCount: 1 })).toBe(false);
  });
});

describe('rental costs', () => {
  it('allows 1 to 720 whole hours', () => {
    expect([1, 24, 720].every(isValidRentalHours)).toBe(true);
    expect([0, 721, 1.5, -3].some(isValidRentalHours)).toBe(false);
  });

  it('quotes hours × rate, with the $2.50 storage add-on on top', () => {
    expect(bookedCostMicros(1_450_000n, 24)).toBe(34_800_000n);
    expect(quoteRental(1_450_000n, 24)).toEqual({
      hourlyRate: '1.45',
      durationHours: 24,
      totalCost: '34.80',
      storageFee: '2.50',
      grandTotal: '37.30',
    });
  });

  it('meters by the second, rounding up to the cent and never above the booking', () => {
    expect(usedCostMicros(3_600_000n, 1, 1)).toBe(10_000n); // $0.001 → $0.01
    expect(usedCostMicros(3_600_000n, 1801, 10)).toBe(1_810_000n);
    expect(usedCostMicros(3_600_000n, 0, 1)).toBe(0n);
    expect(usedCostMicros(1_450_000n, 10 * 3600, 2)).toBe(2_900_000n);
    expect(roundUpToCent(1n)).toBe(10_000n);
  });

  it('splits the used cost into provider earnings and a 10% fee', () => {
    expect(splitEarnings(1_810_000n, 1000)).toEqual({
      providerMicros: 1_629_000n,
      feeMicros: 181_000n,
    });
    expect(splitEarnings(0n, 1000)).toEqual({ providerMicros: 0n, feeMicros: 0n });
  });

  it('compares dollar amounts by value', () => {
    expect(sameDollars('1.5', '1.50')).toBe(true);
    expect(sameDollars(3, '3.00')).toBe(true);
    expect(sameDollars('3.001', '3.00')).toBe(false);
    expect(sameDollars('abc', '1')).toBe(false);
  });
});

describe('page formulas', () => {
  it('calculator total = (hours + days × 24) × rate + 2.50', () => {
    expect(calculatorTotal(24, 0, 1.5)).toBeCloseTo(38.5);
    expect(calculatorTotal(2, 1, 2)).toBeCloseTo(54.5);
  });
  it('rent dialog total = hours × rate + 2.50', () => {
    expect(rentDialogTotal(24, 1.45)).toBeCloseTo(37.3);
  });
  it('daily = hourly × 24, monthly = hourly × 24 × 30', () => {
    expect(dailyRate(1.25)).toBe(30);
    expect(monthlyRate(1.25)).toBe(900);
  });
  it('live cost = rate × hours elapsed, rounded up', () => {
    expect(liveCostEstimate(1.5, 30 * 60_000)).toBe(0.75);
    expect(liveCostEstimate(3.6, 1_000)).toBe(0.01);
    expect(liveCostEstimate(1, 0)).toBe(0);
  });
  it("shows runtime as 'Nh Nm' and totals whole hours", () => {
    expect(formatRuntime(0)).toBe('0h 0m');
    expect(formatRuntime(3 * 3_600_000 + 25 * 60_000 + 59_000)).toBe('3h 25m');
    expect(totalRuntimeHours([90 * 60_000, 150 * 60_000, 59 * 60_000])).toBe(3);
  });
});

describe('display currencies', () => {
  it('converts with the spec rates, JPY without decimals', () => {
    expect(formatMoney('1.45')).toBe('$1.45');
    expect(formatMoney(2, 'EUR')).toBe('€1.70');
    expect(formatMoney(2, 'GBP')).toBe('£1.46');
    expect(formatMoney(1.45, 'JPY')).toBe('¥160');
    expect(formatMoney(1, 'INR')).toBe('₹83.25');
  });
});
