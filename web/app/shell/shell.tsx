import { lazy, type ReactNode, Suspense } from 'react';
import type { CurrentUser } from '../../../shared/contracts/user';
import { useToasts } from '../../components/ui/toast-store';
import { ThemeProvider } from '../../features/theme/theme-provider';
import { Footer } from './footer';
import { Navbar } from './navbar';

const Toaster = lazy(() => import('../../components/ui/toaster'));

/** The toaster's code loads with the first toast, so pages that never toast never pay for it. */
function LazyToaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/** Shown until the shell knows who is signed in (and, signed in, has that code). */
export function LoadingScreen() {
  return (
    <div
      className="flex min-h-screen items-center justify-center text-lg text-muted-foreground"
      role="status"
    >
      Loading...
    </div>
  );
}

interface ShellProps {
  user: CurrentUser | null;
  /** Signed in: the top bar's balance and account menu, and the billing news below it. */
  account?: ReactNode;
  banner?: ReactNode;
  children: ReactNode;
}

/** The frame of every page: navigation, billing news, the page itself, the footer. */
export function Shell({ user, account, banner, children }: ShellProps) {
  return (
    <ThemeProvider user={user}>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-card focus:p-2"
        >
          Skip to content
        </a>
        <Navbar user={user} account={account} />
        {banner}
        {/* At least a screen tall, so the footer starts below the fold while a page loads
            and does not jump when its content arrives (no layout shift). */}
        <main id="main" className="min-h-screen flex-1">
          {children}
        </main>
        <Footer />
      </div>
      <LazyToaster />
    </ThemeProvider>
  );
}
