import { Link } from 'wouter';
import type { CurrentUser } from '../../../shared/contracts/user';

/**
 * Billing news for the signed-in user: a low balance (below their threshold), or metered
 * instances stopped because the balance could not pay their next minute.
 */
export function BalanceBanner({ user }: { user: CurrentUser | null }) {
  const alert = user?.balanceAlert;
  if (!alert) return null;
  const stopped = alert.stoppedInstances;
  const message =
    alert.kind === 'out_of_credits'
      ? `${stopped === 1 ? '1 instance was' : `${stopped} instances were`} stopped because your credits ran out. Nothing was deleted: add credits and start ${stopped === 1 ? 'it' : 'them'} again.`
      : 'Your credit balance is running low. Running instances stop when it cannot pay their next minute.';
  return (
    <div
      role="status"
      data-testid="balance-banner"
      className="border-b border-border bg-muted px-4 py-2 text-center text-sm"
    >
      {message}{' '}
      <Link href="/payments" className="font-medium underline">
        Add Credits
      </Link>
    </div>
  );
}
