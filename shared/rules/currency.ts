/** Display currencies and their rates relative to USD (docs/rules.md, Business constants). */
export const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'INR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const EXCHANGE_RATES: Record<Currency, number> = {
  USD: 1,
  EUR: 0.85,
  GBP: 0.73,
  JPY: 110,
  INR: 83.25,
};

const DECIMALS: Record<Currency, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2 };

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

export function convertUsd(usd: number, currency: Currency): number {
  return usd * EXCHANGE_RATES[currency];
}

const SYMBOLS: Record<Currency, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹' };

/**
 * A non-negative finite number in plain decimal digits ("1e+21" → "1000000000000000000000"),
 * from its shortest round-trip form: the digits Intl.NumberFormat rounds (1.005 → "1.01").
 */
function plainDecimal(value: number): string {
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const mantissa = text.slice(0, e);
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + Number(text.slice(e + 1));
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Adds one to a string of decimal digits ("199" → "200", "99" → "100"). */
function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - 1 - i);
}

/** "1234567" → "1,234,567". */
function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/**
 * What `Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: d,
 * maximumFractionDigits: d }).format(amount)` writes, without one: making the first
 * NumberFormat loads the locale's data, which cost about 180 ms of a phone's main thread on
 * the marketplace. Rounds half away from zero on the shortest decimal form, groups by
 * thousands, and keeps the minus of a negative amount that rounds to zero ("-$0.00");
 * currency.test.ts compares the two over many amounts.
 */
function formatAmount(amount: number, currency: Currency): string {
  const negative = amount < 0 || Object.is(amount, -0);
  const sign = negative ? '-' : '';
  if (Number.isNaN(amount)) return `${SYMBOLS[currency]}NaN`;
  if (!Number.isFinite(amount)) return `${sign}${SYMBOLS[currency]}∞`;
  const decimals = DECIMALS[currency];
  const text = plainDecimal(Math.abs(amount));
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = (dot < 0 ? '' : text.slice(dot + 1)).padEnd(decimals + 1, '0');
  let digits = whole + fraction.slice(0, decimals);
  if (fraction.charCodeAt(decimals) >= 53 /* '5' */) digits = incrementDigits(digits);
  const wholeDigits = digits.slice(0, digits.length - decimals);
  const shown = groupThousands(wholeDigits);
  return decimals === 0
    ? `${sign}${SYMBOLS[currency]}${shown}`
    : `${sign}${SYMBOLS[currency]}${shown}.${digits.slice(digits.length - decimals)}`;
}

/** A USD amount shown in the display currency: "$1.45", "€1.23", "¥160", "₹120.71". */
export function formatMoney(usd: number | string, currency: Currency = 'USD'): string {
  return formatAmount(convertUsd(Number(usd), currency), currency);
}
