/** The Rental Cost Calculator's input bounds. */
export const CALCULATOR_HOURS = { min: 1, max: 167, initial: 24 } as const;
export const CALCULATOR_DAYS = { min: 0, max: 30, initial: 0 } as const;

function clampWhole(raw: string, bounds: { min: number; max: number }): number {
  const value = Math.floor(Number(raw));
  if (!Number.isFinite(value)) return bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, value));
}

/** What the hours box holds after typing: a whole number from 1 to 167. */
export function clampCalculatorHours(raw: string): number {
  return clampWhole(raw, CALCULATOR_HOURS);
}

/** What the days box holds after typing: a whole number from 0 to 30. */
export function clampCalculatorDays(raw: string): number {
  return clampWhole(raw, CALCULATOR_DAYS);
}
