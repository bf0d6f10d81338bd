/** Business constants (docs/rules.md) and the sign-in code's rules (docs/decisions/003). */

export const CURRENT_USER_STALE_MS = 300_000;
export const STATS_POLL_MS = 30_000;
export const LOGIN_RELOAD_DELAY_MS = 1_000;
export const COPY_INDICATOR_MS = 2_000;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'] as const;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const OTP_LENGTH = 6;
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;

export const DEMO_USER_EMAIL = 'demo@rentgpu.dev';

/** Micro-dollars: 1 USD = 1,000,000. See docs/decisions/002-money-in-micro-dollars.md. */
export const MICROS_PER_DOLLAR = 1_000_000n;

export const STORAGE_ADDON_USD = '2.50';
export const MIN_RENTAL_HOURS = 1;
export const MAX_RENTAL_HOURS = 720;

/** Response header carrying the cursor of the next page of a listing list. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
