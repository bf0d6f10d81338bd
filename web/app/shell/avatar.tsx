import type { CurrentUser } from '../../../shared/contracts/user';
import { initials } from '../../../shared/rules/user-display';

export function Avatar({ user, size = 'h-9 w-9' }: { user: CurrentUser; size?: string }) {
  return user.profileImageUrl ? (
    <img src={user.profileImageUrl} alt="" className={`${size} rounded-full object-cover`} />
  ) : (
    <span
      className={`${size} flex items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground`}
    >
      {initials(user)}
    </span>
  );
}
