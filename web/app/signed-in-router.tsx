import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PageFallback, PublicRoutes } from './router';
import { SIGNED_IN_PATHS, signedInPage } from './signed-in-pages';

const NotFound = lazy(() => import('./routes/not-found'));

export function SignedInRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {/* Signed in, / is the marketplace. */}
        <Route path="/" component={signedInPage('/marketplace')} />
        {SIGNED_IN_PATHS.map((path) => (
          <Route key={path} path={path} component={signedInPage(path)} />
        ))}
        {PublicRoutes()}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
