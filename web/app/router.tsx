import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PUBLIC_PATHS } from './public-paths';
import LandingPage from './routes/landing';

export const loadPublicPages = () => import('./public-pages');
const PublicPages = lazy(loadPublicPages);

/** Each public page's path leads to the chunk that has the public pages' routes. */
export function PublicRoutes() {
  return PUBLIC_PATHS.map((path) => <Route key={path} path={path} component={PublicPages} />);
}

export function PageFallback() {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8" aria-busy="true">
      <div className="h-8 w-64 animate-pulse rounded bg-muted" />
      <div className="mt-4 h-4 w-96 max-w-full animate-pulse rounded bg-muted" />
    </div>
  );
}

/** Signed out, any path that is not a public page shows the landing screen. */
export function SignedOutRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {PublicRoutes()}
        <Route component={LandingPage} />
      </Switch>
    </Suspense>
  );
}
