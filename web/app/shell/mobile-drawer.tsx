import { Menu } from 'lucide-react';
import type { CurrentUser } from '../../../shared/contracts/user';
import { buttonClasses } from '../../components/ui/button';
import { LazyTrigger } from '../../components/ui/lazy-trigger';

const loadPanel = () => import('./mobile-drawer-panel');

/** The menu button below 1024 px; the drawer itself loads when first opened. */
export function MobileDrawer({ user }: { user: CurrentUser | null }) {
  return (
    <LazyTrigger
      load={loadPanel}
      props={{ user }}
      placeholder={(handlers) => (
        <button
          type="button"
          className={buttonClasses('ghost', 'icon', 'lg:hidden')}
          aria-label="Open menu"
          {...handlers}
        >
          <Menu className="h-5 w-5" aria-hidden />
        </button>
      )}
    />
  );
}
