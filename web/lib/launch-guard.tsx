import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { ChargeLimitsView } from '../../shared/contracts/payments';
import {
  type LaunchCharge,
  type LaunchRefusal,
  launchRefusal,
  shownBalance,
} from '../../shared/rules/balance-guard';
import { buttonClasses } from '../components/ui/button';
import { apiJson } from './api-client';
import { CHARGE_LIMITS_KEY } from './query-keys';

/**
 * The launch screens' guard against overrun (rent dialog, Create Instance, Instant Deploy;
 * docs/rules.md, Money): what the launch must be able to pay, set against the balance and the
 * account's spend caps before it is sent. Its reason disables the screen's button and offers
 * Add Credits, which comes back to the same screen (its state in the return path). The
 * server's 402 stays the last word: a race still ends in the screen's failure toast.
 */
export function useLaunchGuard(charge: LaunchCharge | null, enabled = true) {
  const limits = useQuery({
    queryKey: CHARGE_LIMITS_KEY,
    queryFn: () => apiJson<ChargeLimitsView>('GET', CHARGE_LIMITS_KEY[0]),
    staleTime: 0,
    enabled,
  });
  const data = limits.data ?? null;
  const refusal = charge && data ? launchRefusal(charge, data) : null;
  return { limits: data, refusal };
}

/** Add Credits, coming back to `returnTo` (a path of this site) after a purchase. */
export const addCreditsHref = (returnTo: string) =>
  `/payments?return=${encodeURIComponent(returnTo)}`;

/** The balance beside a total: a row of the caller's <dl>. */
export function BalanceRow({ limits }: { limits: ChargeLimitsView | null }) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-muted-foreground">Your balance</dt>
      <dd data-testid="launch-balance">{limits ? shownBalance(limits.balance) : '…'}</dd>
    </div>
  );
}

/**
 * Why the launch cannot be paid (its id is the button's aria-describedby) and the way out:
 * Add Credits for the balance, Settings → Billing for a spend cap.
 */
export function LaunchRefusalNote({
  id,
  refusal,
  returnTo,
}: {
  id: string;
  refusal: LaunchRefusal | null;
  returnTo: string;
}) {
  if (!refusal) return null;
  return (
    <div
      className="grid gap-2 rounded-md border border-danger/40 bg-danger/10 p-3 text-sm"
      data-testid="launch-refusal"
    >
      <p id={id} className="text-danger-text">
        {refusal.reason}
      </p>
      {refusal.kind === 'balance' ? (
        <Link
          href={addCreditsHref(returnTo)}
          className={`${buttonClasses('primary', 'sm')} justify-self-start`}
        >
          Add Credits
        </Link>
      ) : (
        <Link href="/settings?tab=billing" className="justify-self-start font-medium underline">
          Spend caps in Settings
        </Link>
      )}
    </div>
  );
}
