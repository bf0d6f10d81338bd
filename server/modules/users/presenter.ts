import type { CurrentUser } from '../../../shared/contracts/user';
import { microsToDollars } from '../../../shared/rules/money';
import { isTheme } from '../../../shared/rules/theme';
import type { UserProfileRow } from './repo';

export function presentCurrentUser(row: UserProfileRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    theme: isTheme(row.theme) ? row.theme : 'dark',
    credits: microsToDollars(row.balanceMicros),
    isProvider: row.isProvider,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
  };
}
