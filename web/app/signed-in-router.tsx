import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PageFallback, PublicRoutes } from './router';
import { SIGNED_IN_PAGES, type SignedInPath } from './signed-in-pages';

// Every page but the landing page is its own chunk (signed-in-pages.ts).
const PAGES = {} as Record<SignedInPath, ComponentType>;
for (const [path, load] of Object.entries(SIGNED_IN_PAGES))
  PAGES[path as SignedInPath] = lazy(load);
const NotFound = lazy(() => import('./routes/not-found'));

export function SignedInRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {/* Signed in, / is the marketplace. */}
        <Route path="/" component={PAGES['/marketplace']} />
        {Object.entries(PAGES).map(([path, Page]) => (
          <Route key={path} path={path} component={Page} />
        ))}
        {PublicRoutes()}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
