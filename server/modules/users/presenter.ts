import type { UserProfile } from '../../../shared/contracts/profile';
import { resolveSettings } from '../../../shared/contracts/settings';
import type { CurrentUser } from '../../../shared/contracts/user';
import { microsToDollars } from '../../../shared/rules/money';
import { isTheme } from '../../../shared/rules/theme';
import type { UserProfileRow } from './repo';

export function presentCurrentUser(row: UserProfileRow): CurrentUser {
  const { preferences } = resolveSettings(row.settings);
  return {
    id: row.id,
    email: row.email,
    pendingEmail: row.pendingEmail,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    theme: isTheme(row.theme) ? row.theme : 'dark',
    credits: microsToDollars(row.balanceMicros),
    currency: preferences.currency,
    timezone: preferences.timezone,
    language: preferences.language,
    isProvider: row.isProvider,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
    balanceAlert:
      row.alertKind === 'out_of_credits' || row.alertKind === 'low_balance'
        ? { kind: row.alertKind, stoppedInstances: row.stoppedInstances }
        : null,
  };
}

export function presentUserProfile(row: UserProfileRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    location: row.location,
    bio: row.bio,
    company: row.company,
    website: row.website,
    pendingEmail: row.pendingEmail,
    profileImageUrl: row.profileImageUrl,
    credits: microsToDollars(row.balanceMicros),
    isProvider: row.isProvider,
    createdAt: row.createdAt.toISOString(),
  };
}
