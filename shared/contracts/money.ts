import { z } from 'zod';
import { TEXT_LIMITS } from './limits';

/** The largest dollar amount any request may carry ($10,000,000): far inside bigint micros. */
export const MAX_DOLLAR_AMOUNT = 10_000_000;
/** The highest hourly rate a listing may ask ($10,000/h): 720 hours of it stay in range. */
export const MAX_HOURLY_RATE = 10_000;
export const DOLLAR_AMOUNT_MESSAGE = 'Enter an amount in dollars, such as 1.50';

const DOLLARS = /^\d{1,8}(\.\d{1,2})?$/;

export interface DollarsOptions {
  /** Inclusive upper bound in dollars (default MAX_DOLLAR_AMOUNT). */
  max?: number;
  /** Refuse 0 (default false). */
  positive?: boolean;
  /** The message for anything that is not such an amount. */
  message?: string;
}

/**
 * The one schema for a dollar amount coming in: a decimal string or a number with at most two
 * decimals ("1.5", "12.00", 3), no sign, exponent or spaces inside, within a sane bound.
 * The output is the trimmed decimal string, ready for dollarsToMicros.
 */
export function dollars(options: DollarsOptions = {}) {
  const max = options.max ?? MAX_DOLLAR_AMOUNT;
  const message = options.message ?? DOLLAR_AMOUNT_MESSAGE;
  return z
    .union([z.string({ message }), z.number({ message })], { message })
    .transform((v) => (typeof v === 'number' ? numberText(v) : v.trim()))
    .pipe(
      z
        .string()
        .max(TEXT_LIMITS.amount, { message, abort: true })
        .regex(DOLLARS, { message, abort: true })
        .refine((v) => Number(v) <= max, {
          message: options.message ?? `At most $${max.toLocaleString('en-US')}`,
        })
        .refine((v) => !options.positive || Number(v) > 0, {
          message: options.message ?? 'Must be more than 0',
        }),
    );
}

/** A number as plain decimal text; exponent forms (1e20, 1e-7) stay as they are and fail. */
function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : 'NaN';
}
