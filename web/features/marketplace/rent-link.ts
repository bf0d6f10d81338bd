import { isValidRentalHours } from '../../../shared/rules/pricing';

/**
 * The rent dialog in the address (issue 42): Add Credits comes back to the page it was opened
 * on with `?rent=<listing id>&hours=<hours>`, and the page opens the dialog again with them.
 */
const RENT_PARAM = 'rent';
const HOURS_PARAM = 'hours';

/** The page as it is, with the dialog's listing and hours (what Add Credits comes back to). */
export function rentReturnPath(
  pathname: string,
  search: string,
  listingId: number,
  hours: number,
): string {
  const params = new URLSearchParams(search);
  params.set(RENT_PARAM, String(listingId));
  params.set(HOURS_PARAM, String(hours));
  return `${pathname}?${params}`;
}

/** The dialog asked for by the address, or null; hours out of bounds become 24. */
export function rentInAddress(search: string): { listingId: number; hours: number } | null {
  const params = new URLSearchParams(search);
  const listingId = Number(params.get(RENT_PARAM));
  if (!Number.isSafeInteger(listingId) || listingId <= 0) return null;
  const hours = Number(params.get(HOURS_PARAM));
  return { listingId, hours: isValidRentalHours(hours) ? hours : 24 };
}

/** The address without the dialog's parameters (once it is open again). */
export function withoutRent(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(RENT_PARAM);
  params.delete(HOURS_PARAM);
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}
