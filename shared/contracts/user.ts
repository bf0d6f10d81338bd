import { z } from 'zod';
import { CURRENCIES } from '../rules/currency';
import { THEMES } from '../rules/theme';
import { LANGUAGES, TIMEZONES } from './settings';

export const themeSchema = z.enum(THEMES);

export const updateThemeBody = z.object({ theme: themeSchema });
export type UpdateThemeBody = z.input<typeof updateThemeBody>;
/** PATCH /api/user/theme answers the saved theme. */
export const updateThemeResponse = updateThemeBody;

/** The current user as GET /api/auth/user answers it. Money is a dollar string. */
export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  /** A new e-mail address waiting for its code; the sign-in address is still email. */
  pendingEmail: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  theme: themeSchema,
  credits: z.string(),
  /** Display currency for prices (settings → preferences.currency), default USD. */
  currency: z.enum(CURRENCIES),
  /** Time zone and language for dates (settings → preferences), default UTC and en. */
  timezone: z.enum(TIMEZONES),
  language: z.enum(LANGUAGES),
  isProvider: z.boolean(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  /**
   * A banner's worth of billing news: the wallet is below the low-balance threshold, or
   * metered instances were stopped because it could not pay their next minute.
   */
  balanceAlert: z
    .object({
      kind: z.enum(['low_balance', 'out_of_credits']),
      stoppedInstances: z.number().int(),
    })
    .nullable(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const signInResponse = z.object({ message: z.string(), user: currentUser });
export type SignInResponse = z.infer<typeof signInResponse>;
