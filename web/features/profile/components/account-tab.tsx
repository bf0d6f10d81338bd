import type { ReactNode } from 'react';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { ChangePassword } from '../../../components/content/change-password';
import { Card } from '../../../components/ui/card';

/** Read-only account facts; Change Password is honest about sign-in without passwords. */
export function AccountTab({
  profile,
  deleteAction,
}: {
  profile: UserProfile;
  deleteAction: ReactNode;
}) {
  const rows: [string, string][] = [
    ['First Name', profile.firstName ?? '—'],
    ['Last Name', profile.lastName ?? '—'],
    ['Email', profile.email],
    ['Account Type', profile.isProvider ? 'Provider Account' : 'Standard Account'],
  ];
  return (
    <Card className="grid gap-6 p-6">
      <dl className="grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="mt-1 rounded-md border border-border bg-muted px-3 py-2 text-sm">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-4 border-t border-border pt-6 sm:grid-cols-2">
        <ChangePassword
          className="grid content-start gap-2"
          why="RentGPU has no passwords: you sign in with a one-time code sent to your e-mail, so there is nothing to change. To move sign-in to another address, edit your e-mail."
        />
        <div className="grid content-start gap-2">{deleteAction}</div>
      </div>
    </Card>
  );
}
