import * as Dialog from '@radix-ui/react-dialog';
import { Menu, Wallet, X } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { CurrentUser } from '../../../shared/contracts/user';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { Brand } from './brand';
import { drawerItems, isActive } from './nav-items';

/**
 * The side drawer below 1024 px: every section of the top bar and, signed in, of the avatar menu
 * (nav-items.ts), the real balance, and sign in or out.
 */
export default function MobileDrawerPanel({
  user,
  defaultOpen = false,
}: {
  user: CurrentUser | null;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [location] = useLocation();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        className={buttonClasses('ghost', 'icon', 'lg:hidden')}
        aria-label="Open menu"
      >
        <Menu className="h-5 w-5" aria-hidden />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto border-r border-border bg-card p-5 text-card-foreground shadow-xl">
          <div className="flex items-center justify-between">
            <Brand />
            <Dialog.Close className={buttonClasses('ghost', 'icon')} aria-label="Close menu">
              <X className="h-5 w-5" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <Dialog.Description className="sr-only">Main pages of RentGPU</Dialog.Description>
          <nav aria-label="Mobile" className="grid gap-0.5">
            {drawerItems(Boolean(user)).map((item) => (
              <Link
                key={item.href}
                href={item.href}
                onClick={() => setOpen(false)}
                aria-current={isActive(location, item.href, Boolean(user)) ? 'page' : undefined}
                className={cn(
                  'rounded-md px-3 py-2 text-sm font-medium',
                  isActive(location, item.href, Boolean(user))
                    ? 'bg-primary text-primary-foreground'
                    : 'hover:bg-muted',
                )}
              >
                {item.label}
              </Link>
            ))}
          </nav>
          <div className="mt-auto grid gap-3">
            {user ? (
              <>
                <p
                  className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm"
                  data-testid="drawer-balance"
                >
                  <Wallet className="h-4 w-4" aria-hidden /> Credits: ${user.credits}
                </p>
                <a href="/api/logout" className={buttonClasses('outline', 'md')}>
                  Log out
                </a>
              </>
            ) : (
              <a href="/api/login" className={buttonClasses('primary', 'md')}>
                Sign In
              </a>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
