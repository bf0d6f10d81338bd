import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { useToasts } from '../components/ui/toast-store';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { ThemeProvider } from '../features/theme/theme-provider';
import { DateFormatProvider } from '../lib/date-format';
import { createQueryClient } from '../lib/query-client';
import { SignedInRouter, SignedOutRouter } from './router';
import { BalanceBanner } from './shell/balance-banner';
import { Footer } from './shell/footer';
import { Navbar } from './shell/navbar';

const queryClient = createQueryClient();
const Toaster = lazy(() => import('../components/ui/toaster'));

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

function Shell() {
  const { user, isLoading } = useCurrentUser();
  const dates = useMemo(
    () => ({ timeZone: user?.timezone ?? 'UTC', language: user?.language ?? 'en' }),
    [user?.timezone, user?.language],
  );
  if (isLoading) {
    return (
      <div
        className="flex min-h-screen items-center justify-center text-lg text-muted-foreground"
        role="status"
      >
        Loading...
      </div>
    );
  }
  return (
    <ThemeProvider user={user}>
      <DateFormatProvider value={dates}>
        <div className="flex min-h-screen flex-col">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-card focus:p-2"
          >
            Skip to content
          </a>
          <Navbar user={user} />
          <BalanceBanner user={user} />
          {/* At least a screen tall, so the footer starts below the fold while a page loads
            and does not jump when its content arrives (no layout shift). */}
          <main id="main" className="min-h-screen flex-1">
            {user ? <SignedInRouter /> : <SignedOutRouter />}
          </main>
          <Footer />
        </div>
        <LazyToaster />
      </DateFormatProvider>
    </ThemeProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}
