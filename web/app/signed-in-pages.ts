import type { ComponentType } from 'react';

type PageModule = Promise<{ default: ComponentType }>;

/**
 * The signed-in pages by path, each its own chunk. In the first JavaScript so that, once the
 * shell knows someone is signed in, the page at hand downloads beside the signed-in code
 * (app.tsx preloadSignedIn) rather than after it.
 */
export const SIGNED_IN_PAGES = {
  '/marketplace': () => import('./routes/marketplace'),
  '/deploy': () => import('./routes/deploy'),
  '/dashboard': () => import('./routes/dashboard'),
  '/vm-dashboard': () => import('./routes/vm-dashboard'),
  // xterm.js loads with this page only.
  '/vm-dashboard/console/:id': () => import('./routes/vm-console'),
  '/provider': () => import('./routes/provider'),
  '/payments': () => import('./routes/payments'),
  '/profile': () => import('./routes/profile'),
  '/settings': () => import('./routes/settings'),
  '/provider-signup': () => import('./routes/provider-signup'),
  '/admin/provider-applications': () => import('./routes/admin-provider-applications'),
} satisfies Record<string, () => PageModule>;

export type SignedInPath = keyof typeof SIGNED_IN_PAGES;

/** Starts downloading the page of a signed-in path (signed in, / is the marketplace). */
export function preloadSignedInPage(pathname: string): void {
  const path = pathname === '/' ? '/marketplace' : pathname;
  if (Object.hasOwn(SIGNED_IN_PAGES, path)) void SIGNED_IN_PAGES[path as SignedInPath]();
}
