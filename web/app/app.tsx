import { type ComponentType, startTransition, useEffect, useState } from 'react';
import type { CurrentUser } from '../../shared/contracts/user';
import { getCurrentUser } from '../features/auth/api/fetch-current-user';
import { isPublicPath } from './public-paths';
import { loadPublicPages, SignedOutRouter } from './router';
import { LoadingScreen, Shell } from './shell/shell';
import { preloadSignedInPage } from './signed-in-pages';

export type Start =
  | { user: null }
  | { user: CurrentUser; SignedInApp: ComponentType<{ user: CurrentUser }> };

/**
 * Who is signed in (nobody when the answer failed) and, when someone is, TanStack Query with
 * the signed-in shell (signed-in-app.tsx) and the page at hand, downloaded side by side: the
 * landing page loads none of them. main.tsx calls this before React starts.
 */
export async function start(pathname: string): Promise<Start> {
  // A public page's routes are needed signed in or out: they download beside the answer.
  if (isPublicPath(pathname)) void loadPublicPages();
  const user = await getCurrentUser().catch(() => null);
  if (!user) return { user: null };
  const [{ default: SignedInApp }] = await Promise.all([
    import('./signed-in-app'),
    preloadSignedInPage(pathname),
  ]);
  return { user, SignedInApp };
}

/**
 * "Loading..." until start is done, then the pages. Not a Suspense fallback: React holds back
 * what replaces a fallback for up to 300 ms after the fallback showed.
 */
export function App({ starting }: { starting: Promise<Start> }) {
  const [started, setStarted] = useState<Start | { failed: unknown } | null>(null);
  useEffect(() => {
    let current = true;
    starting.then(
      // A transition: the first render of a whole page yields to the browser every few
      // milliseconds instead of holding the main thread.
      (value) => current && startTransition(() => setStarted(value)),
      (failed: unknown) => current && setStarted({ failed }),
    );
    return () => {
      current = false;
    };
  }, [starting]);
  if (!started) return <LoadingScreen />;
  // The signed-in code did not download: fail as a page whose code did not.
  if ('failed' in started) throw started.failed;
  if (!started.user) {
    return (
      <Shell user={null}>
        <SignedOutRouter />
      </Shell>
    );
  }
  return <started.SignedInApp user={started.user} />;
}
