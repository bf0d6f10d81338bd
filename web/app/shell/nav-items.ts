export interface NavItem {
  href: string;
  label: string;
}

/** Spec part 1 section 2: the top bar's menu entries, in order. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/marketplace', label: 'Marketplace' },
  { href: '/deploy', label: 'Instant Deploy' },
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/provider', label: 'Provider' },
  { href: '/payments', label: 'Add Credits' },
  { href: '/blog', label: 'Blog' },
  { href: '/documentation', label: 'Documentation' },
];

/** The mobile drawer lists only these. */
export const DRAWER_ITEMS: NavItem[] = [
  { href: '/marketplace', label: 'Marketplace' },
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/provider', label: 'Provider' },
];

/** Signed in, / is the marketplace; signed out it is the landing page and nothing is current. */
export function isActive(current: string, href: string, signedIn: boolean): boolean {
  if (href === '/marketplace') return current === '/marketplace' || (signedIn && current === '/');
  return current === href || current.startsWith(`${href}/`);
}
