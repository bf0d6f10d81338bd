import { lazy, Suspense, use } from 'react';
import type { CurrentUser } from '../../shared/contracts/user';
import { SignedOutRouter } from './router';
import { LoadingScreen, Shell } from './shell/shell';
import { preloadSignedInPage } from './signed-in-pages';

// TanStack Query and the signed-in pages load only for a signed-in person.
const loadSignedInApp = () => import('./signed-in-app');
const SignedInApp = lazy(loadSignedInApp);

/**
 * Starts downloading the signed-in code and the page of this path together, as soon as the
 * answer says someone is signed in (main.tsx), not one after the other.
 */
export function preloadSignedIn(pathname: string): void {
  void loadSignedInApp();
  preloadSignedInPage(pathname);
}

function Pages({ signedIn }: { signedIn: Promise<CurrentUser | null> }) {
  const user = use(signedIn);
  if (!user) {
    return (
      <Shell user={null}>
        <SignedOutRouter />
      </Shell>
    );
  }
  return <SignedInApp user={user} />;
}

/**
 * signedIn: who is signed in, asked before React starts (main.tsx); null when nobody is or
 * the answer failed, which shows the signed-out pages.
 */
export function App({ signedIn }: { signedIn: Promise<CurrentUser | null> }) {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Pages signedIn={signedIn} />
    </Suspense>
  );
}
