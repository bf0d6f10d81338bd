import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';
import type { ListingHostStatus } from '../contracts/listings';
import { dollarsToMicros, microsToDollars } from './money';

/** $2.50 for 50GB of storage, added to every rental (docs/rules.md, Money). */
export const STORAGE_ADDON_MICROS = 2_500_000n;
const CENT = 10_000n;
const SECONDS_PER_HOUR = 3_600n;

export interface ListingAvailability {
  status: string;
  availableCount: number;
  /** Where its instances run (docs/decisions/011); absent means a demo or online host. */
  hostStatus?: ListingHostStatus;
}

/**
 * Whether a machine can run it: its host is online and can serve one of its GPUs (or it is a
 * demo listing).
 */
export function hostCanRun(listing: ListingAvailability): boolean {
  return (
    listing.hostStatus !== 'offline' &&
    listing.hostStatus !== 'none' &&
    listing.hostStatus !== 'not_ready'
  );
}

/**
 * Rentable only when status is available, at least one unit is free and its host can run
 * it (the server refuses the rest with HOST_OFFLINE).
 */
export function isRentable(listing: ListingAvailability): boolean {
  return listing.status === 'available' && listing.availableCount > 0 && hostCanRun(listing);
}

/**
 * 'Rented' at 0 or when rented; '1 Available'; '2 Available'; above 2 'Available'. A listing
 * whose host is offline says 'Host offline'; one without a host yet 'No host connected'; one
 * whose host cannot serve any of its GPUs 'Host not ready'.
 */
export function availabilityLabel(listing: ListingAvailability): string {
  if (listing.hostStatus === 'offline') return 'Host offline';
  if (listing.hostStatus === 'none') return 'No host connected';
  if (listing.hostStatus === 'not_ready') return 'Host not ready';
  if (listing.status === 'rented' || listing.availableCount <= 0) return 'Rented';
  if (listing.status === 'maintenance') return 'Maintenance';
  if (listing.availableCount <= 2) return `${listing.availableCount} Available`;
  return 'Available';
}

/** Amber applies at 2 or fewer. */
export function isLowAvailability(listing: ListingAvailability): boolean {
  return listing.availableCount <= 2;
}

export function isValidRentalHours(hours: number): boolean {
  return Number.isInteger(hours) && hours >= MIN_RENTAL_HOURS && hours <= MAX_RENTAL_HOURS;
}

/** The booked cost: hours × rate (the totalCost a rent call sends, storage excluded). */
export function bookedCostMicros(hourlyRateMicros: bigint, hours: number): bigint {
  return hourlyRateMicros * BigInt(hours);
}

export function roundUpToCent(micros: bigint): bigint {
  return ((micros + CENT - 1n) / CENT) * CENT;
}

/** Usage metered by the second, its cost rounded up to the cent, never above the booking. */
export function usedCostMicros(
  hourlyRateMicros: bigint,
  usedSeconds: number,
  bookedHours: number,
): bigint {
  const seconds = BigInt(Math.max(0, Math.min(usedSeconds, bookedHours * 3600)));
  const exact = (hourlyRateMicros * seconds + SECONDS_PER_HOUR - 1n) / SECONDS_PER_HOUR;
  const rounded = roundUpToCent(exact);
  const booked = bookedCostMicros(hourlyRateMicros, bookedHours);
  return rounded > booked ? booked : rounded;
}

/** Splits a used cost into the provider's earnings and the platform fee (basis points). */
export function splitEarnings(
  usedMicros: bigint,
  platformFeeBps: number,
): { providerMicros: bigint; feeMicros: bigint } {
  const feeMicros = (usedMicros * BigInt(platformFeeBps)) / 10_000n;
  return { providerMicros: usedMicros - feeMicros, feeMicros };
}

export interface RentalQuote {
  hourlyRate: string;
  durationHours: number;
  totalCost: string;
  storageFee: string;
  grandTotal: string;
}

export function quoteRental(hourlyRateMicros: bigint, hours: number): RentalQuote {
  const booked = bookedCostMicros(hourlyRateMicros, hours);
  return {
    hourlyRate: microsToDollars(hourlyRateMicros),
    durationHours: hours,
    totalCost: microsToDollars(booked),
    storageFee: microsToDollars(STORAGE_ADDON_MICROS),
    grandTotal: microsToDollars(booked + STORAGE_ADDON_MICROS),
  };
}

/** Same amount of money, whatever the number of decimals ("1.5" equals "1.50"). */
export function sameDollars(a: string | number, b: string | number): boolean {
  try {
    return dollarsToMicros(String(a)) === dollarsToMicros(String(b));
  } catch {
    return false;
  }
}

/** Daily rate = hourly × 24. */
export function dailyRate(hourly: number): number {
  return hourly * 24;
}

/** The provider form's monthly figure = hourly × 24 × 30. */
export function monthlyRate(hourly: number): number {
  return hourly * 24 * 30;
}

/** Calculator total = (hours + days × 24) × hourly rate + 2.50. */
export function calculatorTotal(hours: number, days: number, hourlyRate: number): number {
  return (hours + days * 24) * hourlyRate + 2.5;
}

/** Rent dialog total: hours × rate plus the storage add-on. */
export function rentDialogTotal(hours: number, hourlyRate: number): number {
  return hours * hourlyRate + 2.5;
}

/** Live cost estimate = rate × hours elapsed, rounded up to the cent. */
export function liveCostEstimate(hourlyRate: number, elapsedMs: number): number {
  const cents = (hourlyRate * Math.max(0, elapsedMs) * 100) / 3_600_000;
  return cents <= 0 ? 0 : Math.ceil(cents - 1e-9) / 100;
}

/** Runtime as 'Nh Nm'. */
export function formatRuntime(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Total runtime is a sum of whole hours. */
export function totalRuntimeHours(durationsMs: number[]): number {
  return durationsMs.reduce((sum, ms) => sum + Math.floor(Math.max(0, ms) / 3_600_000), 0);
}
