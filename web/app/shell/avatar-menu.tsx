import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, Server, Settings, User } from 'lucide-react';
import { Link } from 'wouter';
import type { CurrentUser } from '../../../shared/contracts/user';
import { displayName } from '../../../shared/rules/user-display';
import { Menu } from '../../components/ui/menu';
import { Avatar } from './avatar';
import { VM_DASHBOARD_ITEM } from './nav-items';

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-muted';

export default function AvatarMenu({
  user,
  defaultOpen = false,
}: {
  user: CurrentUser;
  defaultOpen?: boolean;
}) {
  return (
    <Menu
      label={`Account menu for ${displayName(user)}`}
      triggerClassName="rounded-full"
      trigger={<Avatar user={user} />}
      defaultOpen={defaultOpen}
    >
      <div className="px-2 py-2">
        <p className="text-sm font-medium">{displayName(user)}</p>
        <p className="truncate text-xs text-muted-foreground">{user.email}</p>
      </div>
      <DropdownMenu.Separator className="my-1 h-px bg-border" />
      {/* Where pay-as-you-go VMs and deploys are managed (issue 26). */}
      <DropdownMenu.Item asChild className={itemClass}>
        <Link href={VM_DASHBOARD_ITEM.href}>
          <Server className="h-4 w-4" aria-hidden /> {VM_DASHBOARD_ITEM.label}
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Item asChild className={itemClass}>
        <Link href="/profile">
          <User className="h-4 w-4" aria-hidden /> Profile
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Item asChild className={itemClass}>
        <Link href="/settings">
          <Settings className="h-4 w-4" aria-hidden /> Settings
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Separator className="my-1 h-px bg-border" />
      <DropdownMenu.Item asChild className={itemClass}>
        <a href="/api/logout">
          <LogOut className="h-4 w-4" aria-hidden /> Log out
        </a>
      </DropdownMenu.Item>
    </Menu>
  );
}
