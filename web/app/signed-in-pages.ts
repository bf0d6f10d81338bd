import { type ComponentType, lazy } from 'react';
import { SIGNED_IN_PATHS, type SignedInPath } from './signed-in-paths';

type PageModule = Promise<{ default: ComponentType }>;

/**
 * The signed-in pages by path, each its own chunk. In the first JavaScript so that, once the
 * shell knows someone is signed in, the page at hand downloads beside the signed-in code
 * (app.tsx start) rather than after it.
 */
const SIGNED_IN_PAGES = {
  '/marketplace': () => import('./routes/marketplace'),
  '/compare': () => import('./routes/compare'),
  '/deploy': () => import('./routes/deploy'),
  '/dashboard': () => import('./routes/dashboard'),
  '/vm-dashboard': () => import('./routes/vm-dashboard'),
  // xterm.js loads with this page only.
  '/vm-dashboard/console/:id': () => import('./routes/vm-console'),
  '/provider': () => import('./routes/provider'),
  '/payments': () => import('./routes/payments'),
  '/invoices/month/:month': () => import('./routes/invoice'),
  '/invoices/:id': () => import('./routes/invoice'),
  '/receipts/:id': () => import('./routes/receipt'),
  '/profile': () => import('./routes/profile'),
  '/settings': () => import('./routes/settings'),
  '/provider-signup': () => import('./routes/provider-signup'),
  '/admin/provider-applications': () => import('./routes/admin-provider-applications'),
} satisfies Record<SignedInPath, () => PageModule>;

export { SIGNED_IN_PATHS };

const loaded = new Map<SignedInPath, ComponentType>();
const pages = new Map<SignedInPath, ComponentType>();

/**
 * Downloads the page of a signed-in path (signed in, / is the marketplace). A failure is left
 * to the page's own load when it renders.
 */
export async function preloadSignedInPage(pathname: string): Promise<void> {
  const path = pathname === '/' ? '/marketplace' : pathname;
  if (!Object.hasOwn(SIGNED_IN_PAGES, path)) return;
  try {
    loaded.set(path as SignedInPath, (await SIGNED_IN_PAGES[path as SignedInPath]()).default);
  } catch {
    // Shown by the router, which loads the page again.
  }
}

/**
 * The page of a path, the same component every time. A page preloaded before its first render
 * is the page itself; any other loads when first shown (React.lazy, which shows the router's
 * placeholder meanwhile).
 */
export function signedInPage(path: SignedInPath): ComponentType {
  let page = pages.get(path);
  if (!page) {
    page = loaded.get(path) ?? lazy(SIGNED_IN_PAGES[path]);
    pages.set(path, page);
  }
  return page;
}
