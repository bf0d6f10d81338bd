/**
 * The launch screens' guard against overrun (issue 42, part 3): before a rent, a Create
 * Instance or a Deploy is sent, what it must be able to pay is set against the renter's
 * balance and spend caps, with the same rules the server admits it by (the server's 402 stays
 * the last word, for races). Pure: the web shows its figures and its reason.
 *
 * - A booked rental pays its hours × rate and the $2.50 storage add-on at once: that total
 *   must fit the balance and every cap (plans/booked.ts).
 * - A pay-as-you-go (per-minute) instance is admitted when the balance holds one hour of it,
 *   compute and storage (plans/metered.ts `admit`); the caps must leave room for its first
 *   minute (the storage minute charged at create and the compute minute of its readiness).
 */

import { computeMinuteMicros, oneHourMicros, storageMinuteMicros } from './metering';
import { dollarsToMicros, microsToDollars } from './money';
import { roundUpToCent, STORAGE_ADDON_MICROS } from './pricing';
import type { SpendPeriod } from './spend-caps';

/** One spend cap of the account, as GET /api/payments/limits answers it (dollars). */
export interface CapStanding {
  period: SpendPeriod;
  cap: string;
  spent: string;
}

/** What a launch is set against: the balance and the account's caps (dollars). */
export interface ChargeLimits {
  balance: string;
  caps: CapStanding[];
}

/** What a launch must be able to pay, in micro-dollars. */
export interface LaunchCharge {
  /** 'total': a booked rental's whole total; 'first_hour': a pay-as-you-go instance's first hour. */
  basis: 'total' | 'first_hour';
  /** What the balance must hold. */
  balanceMicros: bigint;
  /** What the caps must leave room for. */
  capMicros: bigint;
}

/** A booked rental: hours × rate plus the storage add-on, for the balance and the caps alike. */
export function bookedCharge(hourlyRateMicros: bigint, hours: number): LaunchCharge {
  const total = hourlyRateMicros * BigInt(Math.max(0, Math.floor(hours))) + STORAGE_ADDON_MICROS;
  return { basis: 'total', balanceMicros: total, capMicros: total };
}

/** A pay-as-you-go instance: one hour of compute and storage held; its first minute capped. */
export function firstHourCharge(hourlyRateMicros: bigint, storageGb: number): LaunchCharge {
  const gb = Math.max(0, Math.floor(storageGb));
  return {
    basis: 'first_hour',
    balanceMicros: oneHourMicros(hourlyRateMicros, gb),
    capMicros: computeMinuteMicros(hourlyRateMicros) + storageMinuteMicros(gb),
  };
}

/** What a launch asks, in dollars rounded up to the cent ("1.31"), as the screens show it. */
export const chargeDollars = (micros: bigint): string => microsToDollars(roundUpToCent(micros));

/** A balance as the launch screens show it, rounded down to the cent ("$0.00"). */
export const shownBalance = (dollars: string): string => held(micros(dollars));

export type LaunchRefusal =
  | { kind: 'balance'; reason: string; shortMicros: bigint }
  | { kind: 'cap'; reason: string; period: SpendPeriod };

/** What is asked, rounded up to the cent: never shown as less than it is. */
const usd = (micros: bigint) => `$${microsToDollars(roundUpToCent(micros))}`;
/** What is held, rounded down to the cent: never shown as more than it is. */
const held = (micros: bigint) =>
  micros <= 0n
    ? `$${microsToDollars(micros)}`
    : `$${microsToDollars((micros / 10_000n) * 10_000n)}`;

/** A dollar string as micro-dollars; anything unreadable counts as nothing. */
function micros(dollars: string): bigint {
  try {
    return dollarsToMicros(dollars);
  } catch {
    return 0n;
  }
}

/**
 * Why this launch cannot be paid, in words, or null when it can: the balance first (what Add
 * Credits mends), then the daily and monthly caps (what Settings → Billing mends).
 */
export function launchRefusal(charge: LaunchCharge, limits: ChargeLimits): LaunchRefusal | null {
  const balance = micros(limits.balance);
  if (charge.balanceMicros > balance) {
    const short = charge.balanceMicros - balance;
    const reason =
      charge.basis === 'total'
        ? `Your balance of ${held(balance)} does not cover this total of ${usd(charge.balanceMicros)}. Add at least ${usd(short)} in credits to rent it.`
        : `Your balance of ${held(balance)} does not cover the first hour (${usd(charge.balanceMicros)}): a pay-as-you-go instance starts only when your balance holds its first hour. Add at least ${usd(short)} in credits to launch it.`;
    return { kind: 'balance', reason, shortMicros: short };
  }
  const order: SpendPeriod[] = ['day', 'month'];
  for (const period of order) {
    const cap = limits.caps.find((c) => c.period === period);
    if (!cap) continue;
    const capMicros = micros(cap.cap);
    const spent = micros(cap.spent);
    if (spent + charge.capMicros <= capMicros) continue;
    const what =
      charge.basis === 'total'
        ? `This total of ${usd(charge.capMicros)}`
        : `Its first minute (${usd(charge.capMicros)})`;
    const name = period === 'day' ? 'daily' : 'monthly';
    const when = period === 'day' ? 'today' : 'this month';
    return {
      kind: 'cap',
      period,
      reason: `${what} would go over your ${name} spend cap of ${usd(capMicros)} (${usd(spent)} spent ${when}). Raise or remove the cap in Settings → Billing.`,
    };
  }
  return null;
}

/** The longest return path carried through Add Credits. */
const RETURN_PATH_MAX = 1_000;

/**
 * A return path carried in a URL (Add Credits → back to the dialog): a path of this site,
 * with its query, or null. Refused: anything with a scheme or host ("https://…", "//host",
 * "/\\host"), control characters, the API's own paths (a GET there is not a page, and one
 * signs out), and anything longer than 1,000 characters.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > RETURN_PATH_MAX) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, 'https://rentgpu.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'https://rentgpu.invalid') return null;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return null;
  return `${url.pathname}${url.search}`;
}
