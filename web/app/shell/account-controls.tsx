import { Wallet } from 'lucide-react';
import { Link } from 'wouter';
import type { CurrentUser } from '../../../shared/contracts/user';
import { displayName } from '../../../shared/rules/user-display';
import { LazyTrigger } from '../../components/ui/lazy-trigger';
import { Avatar } from './avatar';

const loadAvatarMenu = () => import('./avatar-menu');

/** The top bar's right side for a signed-in person: the balance and the account menu. */
export function AccountControls({ user }: { user: CurrentUser }) {
  return (
    <>
      <Link
        href="/payments"
        className="flex items-center gap-1.5 whitespace-nowrap rounded-md bg-muted px-2.5 py-1.5 text-sm font-semibold"
        aria-label={`Credit balance $${user.credits}. Add credits`}
        data-testid="credit-balance"
      >
        {/* The icon only from 640 px: on a phone the bar has no room to spare. */}
        <Wallet className="h-4 w-4 max-sm:hidden" aria-hidden />${user.credits}
      </Link>
      <LazyTrigger
        load={loadAvatarMenu}
        props={{ user }}
        placeholder={(handlers) => (
          <button
            type="button"
            className="rounded-full"
            aria-label={`Account menu for ${displayName(user)}`}
            aria-haspopup="menu"
            {...handlers}
          >
            <Avatar user={user} />
          </button>
        )}
      />
    </>
  );
}
