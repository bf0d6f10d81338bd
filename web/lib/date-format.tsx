import { createContext, type ReactNode, useCallback, useContext } from 'react';
import { formatDate } from '../../shared/rules/time';

/** Time zone and language for dates: the signed-in user's settings, UTC and en otherwise. */
export interface DateFormat {
  timeZone: string;
  language: string;
}

const DateFormatContext = createContext<DateFormat>({ timeZone: 'UTC', language: 'en' });

/** Set once by the shell from the current user, so every page formats dates alike. */
export function DateFormatProvider({
  value,
  children,
}: {
  value: DateFormat;
  children: ReactNode;
}) {
  return <DateFormatContext.Provider value={value}>{children}</DateFormatContext.Provider>;
}

export function useDateFormat(): DateFormat {
  return useContext(DateFormatContext);
}

/**
 * The one way a page shows a date: shared/rules/time.ts formatDate ("Nov 22, 2026", with
 * the time "Nov 22, 2026, 02:05 PM") in the user's time zone and language.
 */
export function useFormatDate(): (iso: string | Date, options?: { withTime?: boolean }) => string {
  const dates = useDateFormat();
  return useCallback(
    (iso, options) => formatDate(iso, { ...dates, withTime: options?.withTime ?? false }),
    [dates],
  );
}
