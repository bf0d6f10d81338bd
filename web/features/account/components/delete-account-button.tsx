import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { serverMessage } from '../../../lib/api-client';
import { reloadPage } from '../../../lib/navigation';
import { useDeleteAccount } from '../api/delete-account';

const CONFIRM_WORD = 'DELETE';

/**
 * Delete Account: asks for confirmation by typing DELETE. The server refuses while instances
 * run; otherwise it closes the account (financial records are kept) and signs out.
 */
export function DeleteAccountButton({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount(userId);
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setTyped('');
      setError(null);
    }
  };
  return (
    <>
      <Button variant="danger" className="justify-self-start" onClick={() => setOpen(true)}>
        <Trash2 className="h-4 w-4" aria-hidden /> Delete Account
      </Button>
      <p className="text-xs text-muted-foreground">
        Closes your account and signs you out everywhere. Not possible while instances are running.
      </p>
      <Dialog
        open={open}
        onOpenChange={close}
        title="Delete your account?"
        description="Your profile, settings, API keys and SSH keys are removed and you are signed out everywhere. Payment and rental records are kept, as the law requires. Unused credits are not refunded automatically: contact support first if you want them back."
        onCancel={() => close(false)}
        footer={
          <Button
            variant="danger"
            disabled={typed !== CONFIRM_WORD || remove.isPending}
            onClick={async () => {
              setError(null);
              try {
                await remove.mutateAsync();
                reloadPage();
              } catch (e) {
                setError(serverMessage(e, 'Could not delete your account. Please try again.'));
              }
            }}
          >
            {remove.isPending ? 'Deleting...' : 'Delete Account'}
          </Button>
        }
      >
        <Field id="delete-confirm" label={`Type ${CONFIRM_WORD} to confirm`} error={error}>
          <Input
            id="delete-confirm"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </Field>
      </Dialog>
    </>
  );
}
