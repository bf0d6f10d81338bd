import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { CurrentUser } from '../../../shared/contracts/user';
import { buttonClasses } from '../../components/ui/button';
import { DemoLoginButton } from '../../features/auth/components/demo-login-button';
import { ThemeSwitcher } from '../../features/theme/theme-switcher';
import { cn } from '../../lib/cn';
import { Brand } from './brand';
import { MobileDrawer } from './mobile-drawer';
import { isActive, NAV_ITEMS } from './nav-items';

interface NavbarProps {
  user: CurrentUser | null;
  /** Signed in, the right side (account-controls.tsx: it loads with the signed-in code). */
  account?: ReactNode;
}

export function Navbar({ user, account }: NavbarProps) {
  const [location] = useLocation();
  return (
    <header className="sticky top-0 z-30 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-1.5 px-4 sm:gap-2 sm:px-6 lg:max-xl:px-3">
        <MobileDrawer user={user} />
        <Brand compact />
        {/* From 1024 px; condensed below 1280 px (narrower entries, the brand's mark only). */}
        <nav aria-label="Main" className="hidden items-center gap-0.5 lg:flex xl:ml-2">
          {NAV_ITEMS.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={isActive(location, item.href, Boolean(user)) ? 'page' : undefined}
              className={cn(
                'rounded-md px-1 py-2 text-[13px] font-medium whitespace-nowrap xl:px-2 xl:text-sm',
                isActive(location, item.href, Boolean(user))
                  ? 'bg-primary text-primary-foreground'
                  : 'text-muted-foreground hover:bg-muted hover:text-foreground',
              )}
            >
              {item.label}
            </Link>
          ))}
          <Link href="/provider-signup" className={buttonClasses('provider', 'sm', 'ml-1 xl:ml-2')}>
            Become a Provider
          </Link>
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1.5 sm:gap-2">
          <ThemeSwitcher />
          {user ? (
            account
          ) : (
            <>
              {/* Not on a phone, nor beside the whole menu below 1280 px (the landing's Try Demo Account is there). */}
              <DemoLoginButton className="max-sm:hidden lg:max-xl:hidden" />
              <a href="/api/login" className={buttonClasses('primary', 'sm')}>
                Sign In
              </a>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
