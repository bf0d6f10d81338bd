export interface NamedUser {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

function clean(value: string | null | undefined): string {
  return (value ?? '').trim();
}

/** First name plus last name; otherwise the e-mail before the @; otherwise 'User'. */
export function displayName(user: NamedUser | null | undefined): string {
  const first = clean(user?.firstName);
  const last = clean(user?.lastName);
  const full = [first, last].filter(Boolean).join(' ');
  if (full) return full;
  const local = clean(user?.email).split('@')[0] ?? '';
  return local || 'User';
}

/** First letters of first and last name in upper case; otherwise the e-mail's first letter; otherwise 'U'. */
export function initials(user: NamedUser | null | undefined): string {
  const first = clean(user?.firstName);
  const last = clean(user?.lastName);
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  const email = clean(user?.email);
  if (email) return (email[0] ?? 'U').toUpperCase();
  return 'U';
}
