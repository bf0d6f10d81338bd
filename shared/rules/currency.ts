/** Display currencies and their rates relative to USD (spec part 1 section 9). */
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

// Making an Intl.NumberFormat costs about as much as a page of cards takes to render: one
// per currency, made on first use.
const formats = new Map<Currency, Intl.NumberFormat>();

function moneyFormat(currency: Currency): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: DECIMALS[currency],
      maximumFractionDigits: DECIMALS[currency],
    });
    formats.set(currency, format);
  }
  return format;
}

/** A USD amount shown in the display currency: "$1.45", "€1.23", "¥160", "₹120.71". */
export function formatMoney(usd: number | string, currency: Currency = 'USD'): string {
  return moneyFormat(currency).format(convertUsd(Number(usd), currency));
}
