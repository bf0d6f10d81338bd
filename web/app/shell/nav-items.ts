export interface NavItem {
  href: string;
  label: string;
}

/** The top bar's menu entries, in order (e2e/theme-and-layout.spec.ts). */
export const NAV_ITEMS: NavItem[] = [
  { href: '/marketplace', label: 'Marketplace' },
  { href: '/deploy', label: 'Instant Deploy' },
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/provider', label: 'Provider' },
  { href: '/payments', label: 'Add Credits' },
  { href: '/blog', label: 'Blog' },
  { href: '/documentation', label: 'Documentation' },
];

/** Where pay-as-you-go machines (VMs, deploys) are managed: in the avatar menu and the drawer. */
export const VM_DASHBOARD_ITEM: NavItem = { href: '/vm-dashboard', label: 'VM Dashboard' };

/** The top bar's green button. */
export const BECOME_PROVIDER_ITEM: NavItem = {
  href: '/provider-signup',
  label: 'Become a Provider',
};

/** The avatar menu's pages, which the drawer also lists when signed in. */
export const ACCOUNT_ITEMS: NavItem[] = [
  { href: '/profile', label: 'Profile' },
  { href: '/settings', label: 'Settings' },
];

/**
 * The drawer (below 1024 px, where the top bar has no room for the menu) reaches every section
 * (issue 26): the top bar's entries with the VM Dashboard after Dashboard, and Become a
 * Provider; signed in, also the avatar menu's pages.
 */
export function drawerItems(signedIn: boolean): NavItem[] {
  const main = NAV_ITEMS.flatMap((item) =>
    item.href === '/dashboard' ? [item, VM_DASHBOARD_ITEM] : [item],
  );
  return [...main, BECOME_PROVIDER_ITEM, ...(signedIn ? ACCOUNT_ITEMS : [])];
}

/** Signed in, / is the marketplace; signed out it is the landing page and nothing is current. */
export function isActive(current: string, href: string, signedIn: boolean): boolean {
  if (href === '/marketplace') return current === '/marketplace' || (signedIn && current === '/');
  return current === href || current.startsWith(`${href}/`);
}
