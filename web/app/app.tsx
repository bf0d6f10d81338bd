import { lazy, Suspense, use } from 'react';
import type { CurrentUser } from '../../shared/contracts/user';
import { SignedOutRouter } from './router';
import { LoadingScreen, Shell } from './shell/shell';

// TanStack Query and the signed-in pages load only for a signed-in person.
const SignedInApp = lazy(() => import('./signed-in-app'));

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
