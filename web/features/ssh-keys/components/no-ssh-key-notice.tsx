import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useSshKeys } from '../api/get-ssh-keys';
import { AddSshKeyForm } from './add-ssh-key-form';

/**
 * On every launch screen (through web/lib/launch-notice.tsx): when the account has no SSH
 * key, says so before the launch and lets the renter add one in place. Nothing once it has one.
 */
export function NoSshKeyNotice() {
  const keys = useSshKeys();
  const [adding, setAdding] = useState(false);
  if (!keys.data || keys.data.length > 0) return null;
  return (
    <section
      aria-label="No SSH key"
      className="grid gap-3 rounded-lg border border-warning-text/40 bg-muted p-4 text-sm"
      data-testid="no-ssh-key-notice"
    >
      <p>
        <strong className="text-warning-text">Your account has no SSH key.</strong> Without one, ssh
        cannot sign in to the instance you launch (the web console still works). Add one before
        launching: instances take the keys you have while they are set up.
      </p>
      {adding ? (
        <AddSshKeyForm idPrefix="launch-ssh-key" onAdded={() => setAdding(false)} />
      ) : (
        <div>
          <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
            Add an SSH key
          </Button>
        </div>
      )}
    </section>
  );
}
