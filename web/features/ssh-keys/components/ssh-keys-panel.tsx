import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import { parseSshPublicKey } from '../../../../shared/rules/ssh-key';
import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import { useAddSshKey } from '../api/add-ssh-key';
import { useDeleteSshKey } from '../api/delete-ssh-key';
import { useSshKeys } from '../api/get-ssh-keys';

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
  const add = useAddSshKey();
  const remove = useDeleteSshKey();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseSshPublicKey(publicKey);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Give the key a name';
    if (!parsed.ok) local.publicKey = parsed.error;
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await add.mutateAsync({ name: name.trim(), publicKey });
      setName('');
      setPublicKey('');
      toast({ title: 'SSH Key Added', description: 'New instances will accept this key.' });
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast({
        title: 'Could Not Add Key',
        description: serverMessage(error, 'Failed to add the SSH key. Please try again.'),
        variant: 'destructive',
      });
    }
  }

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
                    toast({
                      title: 'Could Not Remove Key',
                      description: serverMessage(error, 'Please try again.'),
                      variant: 'destructive',
                    });
                  }
                }}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="mt-6 grid gap-3 border-t border-border pt-5" noValidate>
        <h3 className="font-medium">Add an SSH key</h3>
        <Field id="ssh-key-name" label="Name" error={errors.name ?? null}>
          <Input
            id="ssh-key-name"
            value={name}
            maxLength={TEXT_LIMITS.keyName}
            placeholder="e.g. Laptop"
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field
          id="ssh-key-public"
          label="Public key"
          hint="Paste the contents of ~/.ssh/id_ed25519.pub (ed25519, RSA 2048+ or ECDSA)."
          error={errors.publicKey ?? null}
        >
          <Textarea
            id="ssh-key-public"
            rows={3}
            className="font-mono text-xs"
            placeholder="ssh-ed25519 AAAA… you@host"
            maxLength={TEXT_LIMITS.sshPublicKey}
            value={publicKey}
            onChange={(e) => setPublicKey(e.target.value)}
          />
        </Field>
        <div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add SSH Key'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
