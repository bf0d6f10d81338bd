import { type ComponentType, lazy } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { PUBLIC_PATHS, type PublicPath } from './public-paths';
import QueryProvider from './query-provider';

/**
 * A page anyone may read. Signed out, nothing above it provides the query client, so it
 * brings the provider; signed in, the provider is already there and this one hands on the
 * same client.
 */
const publicPage = (load: () => Promise<{ default: ComponentType }>): ComponentType =>
  lazy(async () => {
    const { default: Page } = await load();
    return {
      default: () => (
        <QueryProvider>
          <Page />
        </QueryProvider>
      ),
    };
  });

// Every page but the landing page is its own chunk (docs/architecture.md, Front end).
const PAGES: Record<PublicPath, ComponentType> = {
  '/blog': publicPage(() => import('./routes/blog')),
  '/blog/:slug': publicPage(() => import('./routes/blog-post')),
  '/documentation': publicPage(() => import('./routes/documentation')),
  '/privacy-policy': publicPage(() => import('./routes/privacy-policy')),
  '/terms-of-service': publicPage(() => import('./routes/terms-of-service')),
  '/cookie-policy': publicPage(() => import('./routes/cookie-policy')),
  '/api-reference': publicPage(() => import('./routes/api-reference')),
  '/help-center': publicPage(() => import('./routes/help-center')),
  '/contact-us': publicPage(() => import('./routes/contact-us')),
  '/terms': () => <Redirect to="/terms-of-service" replace />,
  '/privacy': () => <Redirect to="/privacy-policy" replace />,
};

/** The public pages' routes; the first JavaScript knows only their paths (public-paths.ts). */
export default function PublicPages() {
  return (
    <Switch>
      {PUBLIC_PATHS.map((path) => (
        <Route key={path} path={path} component={PAGES[path]} />
      ))}
    </Switch>
  );
}
