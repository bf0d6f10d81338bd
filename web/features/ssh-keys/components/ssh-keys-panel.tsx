import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useDeleteSshKey } from '../api/delete-ssh-key';
import { useSshKeys } from '../api/get-ssh-keys';
import { AddSshKeyForm } from './add-ssh-key-form';

const TYPE_LABELS: Record<string, string> = {
  'ssh-ed25519': 'ED25519',
  'ssh-rsa': 'RSA',
  'ecdsa-sha2-nistp256': 'ECDSA',
  'ecdsa-sha2-nistp384': 'ECDSA',
  'ecdsa-sha2-nistp521': 'ECDSA',
};

/** SSH public keys that rentals and the public API install on instances. */
export function SshKeysPanel({ dates }: { dates: { timeZone: string; language: string } }) {
  const keys = useSshKeys();
  const remove = useDeleteSshKey();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold">SSH Keys</h2>
      <p className="text-sm text-muted-foreground">
        Installed on every instance you rent, so you can connect with <code>ssh</code>.
      </p>
      {keys.isLoading ? (
        <Skeleton className="mt-4 h-12" />
      ) : keys.data?.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">No SSH keys yet.</p>
      ) : (
        <ul className="mt-4 grid gap-2" aria-label="SSH keys">
          {keys.data?.map((key) => (
            <li
              key={key.id}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-border p-3"
              aria-label={`SSH key ${key.name}`}
            >
              <Badge tone="info">{TYPE_LABELS[key.type] ?? key.type}</Badge>
              <div className="min-w-0 flex-1">
                <p className="font-medium">{key.name}</p>
                <p className="truncate font-mono text-xs text-muted-foreground">
                  {key.fingerprint}
                </p>
                <p className="text-xs text-muted-foreground">
                  Added {formatDate(key.createdAt, dates)}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={remove.isPending}
                onClick={async () => {
                  try {
                    await remove.mutateAsync(key.id);
                    toast({
                      title: 'SSH Key Removed',
                      description: `"${key.name}" will not be installed on new instances.`,
                    });
                  } catch (error) {
                    toastFailure('Could Not Remove Key', error, 'Please try again.');
                  }
                }}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6 border-t border-border pt-5">
        <AddSshKeyForm idPrefix="ssh-key" />
      </div>
    </Card>
  );
}
