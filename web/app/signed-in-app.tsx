import { useMemo, useState } from 'react';
import type { CurrentUser } from '../../shared/contracts/user';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { NoSshKeyNotice } from '../features/ssh-keys/components/no-ssh-key-notice';
import { DateFormatProvider } from '../lib/date-format';
import { LaunchNoticeProvider } from '../lib/launch-notice';
import QueryProvider, { seedCurrentUser } from './query-provider';
import { SignedOutRouter } from './router';
import { AccountControls } from './shell/account-controls';
import { BalanceBanner } from './shell/balance-banner';
import { Shell } from './shell/shell';
import { SignedInRouter } from './signed-in-router';

function SignedInShell() {
  // The query keeps the user fresh (a rental or a payment changes the balance); should it
  // answer 401 later (the session ended), the signed-out pages show, as on a first visit.
  const { user } = useCurrentUser();
  const dates = useMemo(
    () => ({ timeZone: user?.timezone ?? 'UTC', language: user?.language ?? 'en' }),
    [user?.timezone, user?.language],
  );
  return (
    <DateFormatProvider value={dates}>
      <Shell
        user={user}
        account={user ? <AccountControls user={user} /> : null}
        banner={<BalanceBanner user={user} />}
      >
        {user ? (
          <LaunchNoticeProvider notice={NoSshKeyNotice}>
            <SignedInRouter />
          </LaunchNoticeProvider>
        ) : (
          <SignedOutRouter />
        )}
      </Shell>
    </DateFormatProvider>
  );
}

/** Everything a signed-in person's pages need beyond the landing page: loaded once signed in. */
export default function SignedInApp({ user }: { user: CurrentUser }) {
  useState(() => seedCurrentUser(user));
  return (
    <QueryProvider>
      <SignedInShell />
    </QueryProvider>
  );
}
