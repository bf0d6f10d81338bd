/**
 * Spend caps (issue 23, part 6): a renter's daily and monthly limit on what they are charged
 * (compute minutes, rentals' escrow), per account and per API key. Pure rules shared by the
 * server's enforcement and the web's forms.
 */

export const SPEND_PERIODS = ['day', 'month'] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/** The warning goes out once spent reaches this share of a cap (basis points: 80%). */
const SPEND_WARNING_BPS = 8_000n;

/** Where the period holding `at` starts: UTC midnight, or the first of the UTC month. */
export function periodStart(period: SpendPeriod, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return period === 'day' ? new Date(Date.UTC(y, m, at.getUTCDate())) : new Date(Date.UTC(y, m, 1));
}

/** Whether a charge of `charge` on top of `spent` would go over `cap`. */
export const wouldCross = (spent: bigint, charge: bigint, cap: bigint): boolean =>
  spent + charge > cap;

/** Whether `spent` is at 80% of `cap` or more. */
export const atWarning = (spent: bigint, cap: bigint): boolean =>
  spent * 10_000n >= cap * SPEND_WARNING_BPS;

/** A cap as a form holds it: dollars with at most two decimals, more than 0, up to 1,000,000. */
export const CAP_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;
export const CAP_MAX_DOLLARS = 1_000_000;
